package control

import (
	"context"
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
)

// MessageWorkload is the workload that echoes a user's own message.
const MessageWorkload = "message"

// checkMessages refuses the message workload on a stack that does not carry a user's
// message, saying why its protocol cannot (Protocol.NoMessages), and reads the
// schema and the messages (the driver's side: from the .proto and data file the spec
// names) when s does not hold them yet.
func checkMessages(r Resolved, s *spec.Spec) error {
	if s.Workload != MessageWorkload {
		return nil
	}
	for _, side := range []struct {
		st   *protocol.Stack
		side protocol.Side
		name string
		used bool
	}{{r.Server, protocol.ServerSide, "server", r.HasServer()}, {r.Client, protocol.ClientSide, "client", true}} {
		if !side.used || side.st.CarriesMessages(side.side) {
			continue
		}
		why := r.Protocol.NoMessages
		if why == "" {
			why = "its stack carries wirebench's own contract only"
		}
		return fmt.Errorf("%s cannot carry your message (workload %s) with the %s %s stack: %s", r.Protocol.Name, MessageWorkload, side.st.Name, side.name, why)
	}
	if s.Params.Messages != nil {
		return nil
	}
	var paths []string
	for _, p := range strings.Split(s.MessageImportPaths, ",") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, p)
		}
	}
	m, err := usermsg.Load(context.Background(), usermsg.Source{
		Proto: s.MessageProto, ImportPaths: paths, Message: s.MessageName, DataFile: s.MessageDataFile,
		Seed: s.DataSeed, Count: int(s.MessageCount),
		Shape: usermsg.Shape{StringLen: int(s.MessageStringLen), BytesLen: int(s.MessageBytesLen), Repeated: int(s.MessageRepeated)},
	})
	if err != nil {
		return err
	}
	s.Params.Messages = m
	return nil
}

// setMessages puts the spec's schema and messages into b: a worker needs neither
// the .proto nor the data file. An encoding error leaves them out, and the worker
// then refuses the setup for want of them.
func setMessages(b *controlpb.Benchmark, s spec.Spec) {
	if s.Params.Messages == nil {
		return
	}
	set, data, err := s.Params.Messages.Wire()
	if err != nil {
		return
	}
	b.MessageSchema, b.MessageData = set, data
}

// MessagesOf is what a worker reads of the message workload from b: the schema and
// messages the driver sent, or nil for another workload.
func MessagesOf(b *controlpb.Benchmark) (*usermsg.Schema, error) {
	if b.GetWorkload() != MessageWorkload {
		return nil, nil
	}
	return usermsg.FromWire(b.GetMessageName(), b.GetMessageSchema(), b.GetMessageData())
}
