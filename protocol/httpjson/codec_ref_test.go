package httpjson

// The encoding/json codec that the hand-written one replaced, kept as the reference
// the differential tests hold it to: the same Go types and calls as before, renamed
// with a ref prefix.

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/wirebench/wirebench/contract"
)

type (
	refPersonList struct {
		Persons []contract.Person `json:"persons"`
	}
	refLinkList struct {
		Links []contract.PersonLink `json:"links"`
	}
	refEchoBody struct {
		Payload *string `json:"payload"`
	}
	refEchoOut struct {
		Payload string `json:"payload"`
	}
	refValueBody struct {
		Value *int64 `json:"value"`
	}
	refValueOut struct {
		Value int64 `json:"value"`
	}
	refErrorBody struct {
		Code    contract.Code `json:"code"`
		Message string        `json:"message"`
	}
)

type refWireSide contract.Side

func (s refWireSide) MarshalText() ([]byte, error) {
	switch contract.Side(s) {
	case contract.Buy:
		return []byte("BUY"), nil
	case contract.Sell:
		return []byte("SELL"), nil
	}
	return nil, fmt.Errorf("trade side %d is neither BUY nor SELL", s)
}

func (s *refWireSide) UnmarshalText(b []byte) error {
	switch string(b) {
	case "BUY":
		*s = refWireSide(contract.Buy)
	case "SELL":
		*s = refWireSide(contract.Sell)
	default:
		return fmt.Errorf("trade side %q is neither BUY nor SELL", b)
	}
	return nil
}

type refWireTrade struct {
	ID             int64       `json:"id"`
	Symbol         string      `json:"symbol"`
	Price          float64     `json:"price"`
	Quantity       int64       `json:"quantity"`
	TimestampNanos int64       `json:"timestamp_nanos"`
	Side           refWireSide `json:"side"`
}

type refStreamEnd struct {
	End struct {
		Count int64 `json:"count"`
	} `json:"end"`
}

type refStreamError struct {
	Error refErrorBody `json:"error"`
}

type refStreamLine struct {
	refWireTrade
	End *struct {
		Count int64 `json:"count"`
	} `json:"end"`
	Error *refErrorBody `json:"error"`
}

// refEncode is what the encoders wrote: json.Encoder without HTML escaping.
func refEncode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

func refEncodeTrade(t *contract.Trade) ([]byte, error) {
	return refEncode(&refWireTrade{ID: t.ID, Symbol: t.Symbol, Price: t.Price, Quantity: t.Quantity,
		TimestampNanos: t.TimestampNanos, Side: refWireSide(t.Side)})
}

func refEncodeEnd(count int64) ([]byte, error) {
	var l refStreamEnd
	l.End.Count = count
	return refEncode(&l)
}

func refDecodeEcho(data []byte) (string, error) {
	var b refEchoBody
	if err := json.Unmarshal(data, &b); err != nil {
		return "", err
	}
	if b.Payload == nil {
		return "", fmt.Errorf("missing payload")
	}
	return *b.Payload, nil
}

func refDecodeValue(data []byte) (int64, error) {
	var b refValueBody
	if err := json.Unmarshal(data, &b); err != nil {
		return 0, err
	}
	if b.Value == nil {
		return 0, fmt.Errorf("missing value")
	}
	return *b.Value, nil
}

func refDecodeError(data []byte) *contract.Error {
	var b refErrorBody
	if json.Unmarshal(data, &b) != nil || !b.Code.Valid() {
		return nil
	}
	return &contract.Error{Code: b.Code, Message: b.Message}
}

// refDecodeStreamLine returns the line's trade when it is a trade line.
func refDecodeStreamLine(data []byte) (refStreamLine, contract.Trade, error) {
	var l refStreamLine
	if err := json.Unmarshal(data, &l); err != nil {
		return l, contract.Trade{}, err
	}
	var t contract.Trade
	if l.End == nil && l.Error == nil {
		t = contract.Trade{ID: l.ID, Symbol: l.Symbol, Price: l.Price, Quantity: l.Quantity,
			TimestampNanos: l.TimestampNanos, Side: contract.Side(l.Side)}
	}
	return l, t, nil
}
