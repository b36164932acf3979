package gonethttpjson

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// rawJSON is a request body already encoded (send writes it as it is).
type rawJSON []byte

// handleMessages serves the message workload's route (httpjson.PathMessageEcho) of
// the message type md, when there is one.
func (s *StdServer) handleMessages(md protoreflect.MessageDescriptor) {
	if md == nil {
		return
	}
	s.mux.HandleFunc("POST "+httpjson.PathMessageEcho, func(w http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		body, ce := httpjson.ReadRequest(w, r, s.Limit(), &buf)
		var out []byte
		if ce == nil {
			out, ce = httpjson.EchoMessageBody(md, body)
		}
		if ce != nil {
			writeStdError(w, httpjson.StatusOf(ce.Code), ce)
			return
		}
		w.Header().Set("Content-Type", httpjson.JSONType)
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		w.WriteHeader(http.StatusOK)
		w.Write(out) // a failed write means the client is gone
	})
	s.mux.HandleFunc(httpjson.PathMessageEcho, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", httpjson.AllowPost)
		writeStdError(w, http.StatusMethodNotAllowed, httpjson.MethodNotAllowed(r, httpjson.AllowPost))
	})
}

var _ usermsg.Echoer = (*StdClient)(nil)

// EchoMessage calls POST /message/echo with m in the protobuf JSON mapping.
func (c *StdClient) EchoMessage(ctx context.Context, m proto.Message) (proto.Message, error) {
	const op = httpjson.OpMessageEcho
	in, err := protojson.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("http-json %s: %w", op, err)
	}
	resp, err := c.send(ctx, op, http.MethodPost, httpjson.PathMessageEcho, rawJSON(in))
	if err != nil {
		return nil, err
	}
	defer c.release(resp)
	body, err := c.readAll(resp)
	if err != nil {
		return nil, c.fail(ctx, op, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, httpjson.StatusError(resp.StatusCode, body, httpjson.JSONDecodeError(body))
	}
	return httpjson.DecodeMessage(m, body)
}
