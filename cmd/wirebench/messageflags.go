package main

import (
	"context"
	"strings"

	"github.com/wirebench/wirebench/contract/usermsg"
	"github.com/wirebench/wirebench/spec"
)

// messageFlags name a user's own message for serve (the type its server echoes) and
// conform (the type, and the messages echoed), as bench's --proto, --import-paths,
// --message and --data-file do for the message workload.
type messageFlags struct {
	Proto       string `help:"Your own message: the .proto that defines --message (compiled at run time)." placeholder:"FILE"`
	ImportPaths string `help:"Directories, comma-separated, where --proto and its imports are found (default: --proto's own directory)." placeholder:"DIR,..."`
	Message     string `help:"Your own message's full name (package.Message): the server echoes it (the message workload; docs/your-service.md)."`
}

func (m messageFlags) set() bool { return m.Proto != "" || m.Message != "" }

// apply puts the flags into s as the message workload's settings.
func (m messageFlags) apply(s *spec.Spec) {
	if m.set() {
		s.Workload, s.MessageProto, s.MessageImportPaths, s.MessageName = "message", m.Proto, m.ImportPaths, m.Message
	}
}

// load reads the schema, with messages from dataFile or generated from seed.
func (m messageFlags) load(ctx context.Context, dataFile string, seed uint64) (*usermsg.Schema, error) {
	var paths []string
	for _, p := range strings.Split(m.ImportPaths, ",") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, p)
		}
	}
	d := spec.Default()
	s, err := usermsg.Load(ctx, usermsg.Source{Proto: m.Proto, ImportPaths: paths, Message: m.Message, DataFile: dataFile,
		Seed: seed, Count: int(d.MessageCount),
		Shape: usermsg.Shape{StringLen: int(d.MessageStringLen), BytesLen: int(d.MessageBytesLen), Repeated: int(d.MessageRepeated)}})
	if err != nil {
		return nil, usageError{err}
	}
	return s, nil
}
