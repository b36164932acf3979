package gotunedjson

import (
	"encoding/json"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// TestTradeLinesRoundTrip checks the three kinds of stream line both ways.
func TestTradeLinesRoundTrip(t *testing.T) {
	e := tradeEncoder{encoder: getEncoder()}
	defer putEncoder(e.encoder)
	var (
		l  streamLine
		tr contract.Trade
	)
	for i := range int64(20) {
		want := contract.TradeAt(i)
		e.buf.Reset()
		if err := e.Trade(&want); err != nil {
			t.Fatal(err)
		}
		if err := decodeStreamLine(e.Bytes(), &l, &tr); err != nil || l.End != nil || l.Error != nil || tr != want {
			t.Fatalf("trade %d: %s decoded to %+v, %v", i, e.Bytes(), tr, err)
		}
	}
	e.buf.Reset()
	e.End(42)
	if err := decodeStreamLine(e.Bytes(), &l, &tr); err != nil || l.End == nil || l.End.Count != 42 {
		t.Fatalf("end line %s decoded to %+v, %v", e.Bytes(), l, err)
	}
	e.buf.Reset()
	e.StreamError(&contract.Error{Code: contract.Internal, Message: "boom"})
	if err := decodeStreamLine(e.Bytes(), &l, &tr); err != nil || l.Error == nil || l.Error.Code != contract.Internal {
		t.Fatalf("error line %s decoded to %+v, %v", e.Bytes(), l, err)
	}
	if err := decodeStreamLine([]byte(`{"side":"HOLD"}`), &l, &tr); err == nil {
		t.Error("a trade with side HOLD decoded")
	}
}

func TestErrorBodies(t *testing.T) {
	for _, code := range contract.Codes {
		e := getEncoder()
		encodeError(e, &contract.Error{Code: code, Message: "it: failed"})
		got := httpjson.StatusError(httpjson.StatusOf(code), e.Bytes(), decodeError(e.Bytes()))
		putEncoder(e)
		if ce, ok := got.(*contract.Error); !ok || ce.Code != code || ce.Message != "it: failed" {
			t.Errorf("%s: round trip gave %#v", code, got)
		}
		if httpjson.CodeOfStatus(httpjson.StatusOf(code)) != code {
			t.Errorf("%s: status %d maps back to %q", code, httpjson.StatusOf(code), httpjson.CodeOfStatus(httpjson.StatusOf(code)))
		}
	}
	if got := decodeError([]byte(`{"code":"bogus","message":"x"}`)); got != nil {
		t.Errorf("an unknown code decoded as %+v", got)
	}
}

// The original's trade lines decode back field by field, whatever the member order,
// and an end line among them is one.
func TestDecodeOriginalLine(t *testing.T) {
	var l streamLine
	for i := range int64(300) {
		want := contract.OriginalTradeAt(i * 37)
		b, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		var got contract.OriginalTrade
		if err := decodeOriginalLine(b, &l, &got); err != nil || got != want || l.End != nil || l.Error != nil {
			t.Fatalf("line %s: %+v, end %v, error %v, %v", b, got, l.End, l.Error, err)
		}
	}
	var got contract.OriginalTrade
	line := []byte(`{"long10":7,"str3":"x\u00e9","end":{"count":2},"id":"1"}`)
	if err := decodeOriginalLine(line, &l, &got); err != nil || l.End == nil || l.End.Count != 2 || got.Long10 != 7 || got.Str3 != "xé" || got.ID != "1" {
		t.Errorf("line %s: %+v, end %v, %v", line, got, l.End, err)
	}
}
