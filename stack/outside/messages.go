package outside

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
)

// Messages splits b into JSON messages: an array's elements, one value, or (lines)
// one value a line, blank lines skipped. A line that is not JSON is named by where (a file) and its
// number, as where:N.
func Messages(where string, b []byte, lines bool) ([]string, error) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return nil, fmt.Errorf("%s: no JSON message", where)
	}
	if t[0] == '[' {
		var arr []json.RawMessage
		if err := json.Unmarshal(t, &arr); err != nil {
			return nil, fmt.Errorf("%s: %v", where, err)
		}
		out := make([]string, len(arr))
		for i, m := range arr {
			out[i] = string(m)
		}
		return out, nil
	}
	if json.Valid(t) {
		return []string{string(t)}, nil
	}
	if !lines {
		return nil, fmt.Errorf("%s: not JSON", where)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if !json.Valid(line) {
			return nil, fmt.Errorf("%s:%d: not JSON", where, n)
		}
		out = append(out, string(line))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", where, err)
	}
	return out, nil
}
