package httpjson

// The encoding/json codec, the reference the differential tests hold the
// hand-written one to: the wire types of the production stack (stdjson.go), the Go
// types the tuned codec encodes and decodes too, marshalled as the tuned codec
// writes them (no HTML escaping).

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/wirebench/wirebench/contract"
)

// refEncode is what the encoders wrote: json.Encoder without HTML escaping.
func refEncode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

func refEncodeTrade(t *contract.Trade) ([]byte, error) {
	w := toWireTrade(t)
	return refEncode(&w)
}

func refEncodeEnd(count int64) ([]byte, error) {
	return refEncode(&endLine{End: streamEnd{Count: count}})
}

func refDecodeEcho(data []byte) (string, error) {
	var b echoRead
	if err := json.Unmarshal(data, &b); err != nil {
		return "", err
	}
	if b.Payload == nil {
		return "", fmt.Errorf("missing payload")
	}
	return *b.Payload, nil
}

func refDecodeValue(data []byte) (int64, error) {
	var b valueRead
	if err := json.Unmarshal(data, &b); err != nil {
		return 0, err
	}
	if b.Value == nil {
		return 0, fmt.Errorf("missing value")
	}
	return *b.Value, nil
}

// refDecodeStreamLine returns the line's trade when it is a trade line.
func refDecodeStreamLine(data []byte) (anyLine, contract.Trade, error) {
	var l anyLine
	if err := json.Unmarshal(data, &l); err != nil {
		return l, contract.Trade{}, err
	}
	var t contract.Trade
	if l.End == nil && l.Error == nil {
		t = l.trade()
	}
	return l, t, nil
}
