package gotunedjson

// The encoding/json codec, the reference the differential tests hold the
// hand-written one to: the wire types of the production stack (stdjson.go), the Go
// types the tuned codec encodes and decodes too, marshalled as the tuned codec
// writes them (no HTML escaping).

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/httpjson"
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
	w := httpjson.ToWireTrade(t)
	return refEncode(&w)
}

func refEncodeEnd(count int64) ([]byte, error) {
	return refEncode(&httpjson.EndLine{End: httpjson.StreamEnd{Count: count}})
}

func refDecodeEcho(data []byte) (string, error) {
	var b httpjson.EchoRead
	if err := json.Unmarshal(data, &b); err != nil {
		return "", err
	}
	if b.Payload == nil {
		return "", fmt.Errorf("missing payload")
	}
	return *b.Payload, nil
}

func refDecodeValue(data []byte) (int64, error) {
	var b httpjson.ValueRead
	if err := json.Unmarshal(data, &b); err != nil {
		return 0, err
	}
	if b.Value == nil {
		return 0, fmt.Errorf("missing value")
	}
	return *b.Value, nil
}

// refDecodeStreamLine returns the line's trade when it is a trade line.
func refDecodeStreamLine(data []byte) (httpjson.AnyLine, contract.Trade, error) {
	var l httpjson.AnyLine
	if err := json.Unmarshal(data, &l); err != nil {
		return l, contract.Trade{}, err
	}
	var t contract.Trade
	if l.End == nil && l.Error == nil {
		t = l.Trade()
	}
	return l, t, nil
}

// refDecodeError is what the production client makes of an error body: the contract
// error it carries, or nil when it is not one of ours.
func refDecodeError(data []byte) *contract.Error {
	var b httpjson.ErrorBody
	if json.Unmarshal(data, &b) != nil || !b.Code.Valid() {
		return nil
	}
	return &contract.Error{Code: b.Code, Message: b.Message}
}
