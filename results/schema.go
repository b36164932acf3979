package results

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is the JSON Schema (draft 2020-12) of a results file, the same text
// as results.schema.json in the source tree. It is exported for tools and for
// other packages' tests; treat it as read-only.
//
//go:embed results.schema.json
var Schema []byte

// schemaURL is only a name to register the embedded schema under; nothing is
// fetched.
const schemaURL = "https://wirebench.invalid/results.schema.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		return nil, fmt.Errorf("results schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat() // so "started" must really be a date-time
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("results schema: %w", err)
	}
	return c.Compile(schemaURL)
})

// ValidateJSON checks a results document against Schema. The error lists
// every violation with its JSON pointer, e.g.
// "at '/benchmarks/0/summary': missing property 'ops'".
// It is safe for concurrent use.
func ValidateJSON(data []byte) error {
	sch, err := compiled()
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("results: not JSON: %w", err)
	}
	if err := sch.Validate(doc); err != nil {
		return fmt.Errorf("results do not match the schema: %w", err)
	}
	return nil
}
