package usermsg

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// AllKindsProto is the conformance schema of the message workload: a proto3 message,
// wbtest.v1.AllKinds, with a field of every kind a protocol must carry (every scalar,
// enums with a negative value, nested and recursive messages, repeated fields, maps
// with each key kind, a oneof, proto3 optional, Timestamp, Duration, every wrapper,
// Struct, Value, ListValue, Empty). protocoltest and `wirebench conform` echo it.
//
//go:embed allkinds.proto
var AllKindsProto []byte

// AllKindsMessage is the message of AllKindsProto that the conformance checks echo.
const AllKindsMessage = "wbtest.v1.AllKinds"

// AllKinds loads AllKindsProto (written to a file under dir) with messages generated
// from seed: count of them, the oneof's members in turn, and the empty message.
func AllKinds(ctx context.Context, dir string, seed uint64, count int, shape Shape) (*Schema, error) {
	path := filepath.Join(dir, "allkinds.proto")
	if err := os.WriteFile(path, AllKindsProto, 0o644); err != nil {
		return nil, err
	}
	s, err := Load(ctx, Source{Proto: path, Message: AllKindsMessage, Seed: seed, Count: count, Shape: shape})
	if err != nil {
		return nil, err
	}
	s.Messages = append(s.Messages, s.New())
	return s, nil
}

// FirstDifference names the first field (a path, "point.x", "words[2]", "counts")
// where got differs from want, and the two values; "" when they are equal. diff
// returns "" when no field of the two messages differs.
func FirstDifference(want, got proto.Message) (field, wantText, gotText string) {
	if proto.Equal(want, got) {
		return "", "", ""
	}
	if f, w, g := diff("", want.ProtoReflect(), got.ProtoReflect()); f != "" {
		return f, w, g
	}
	return "(unknown fields)", "none", "some"
}

func diff(prefix string, a, b protoreflect.Message) (string, string, string) {
	if a.Descriptor().FullName() != b.Descriptor().FullName() {
		return prefix + "(type)", string(a.Descriptor().FullName()), string(b.Descriptor().FullName())
	}
	fs := a.Descriptor().Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		name := prefix + string(f.Name())
		if a.Has(f) != b.Has(f) {
			return name, present(a, f), present(b, f)
		}
		if !a.Has(f) {
			continue
		}
		va, vb := a.Get(f), b.Get(f)
		switch {
		case f.IsList():
			la, lb := va.List(), vb.List()
			if la.Len() != lb.Len() {
				return name + " (length)", fmt.Sprint(la.Len()), fmt.Sprint(lb.Len())
			}
			for j := 0; j < la.Len(); j++ {
				el := fmt.Sprintf("%s[%d]", name, j)
				if f.Message() != nil {
					if d, x, y := diff(el+".", la.Get(j).Message(), lb.Get(j).Message()); d != "" {
						return d, x, y
					}
				} else if !la.Get(j).Equal(lb.Get(j)) {
					return el, fmt.Sprint(la.Get(j)), fmt.Sprint(lb.Get(j))
				}
			}
		case f.IsMap():
			ma, mb := va.Map(), vb.Map()
			if ma.Len() != mb.Len() {
				return name + " (entries)", fmt.Sprint(ma.Len()), fmt.Sprint(mb.Len())
			}
			var d, x, y string
			ma.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
				el := fmt.Sprintf("%s[%v]", name, k)
				if !mb.Has(k) {
					d, x, y = el, "an entry", "none"
				} else if f.MapValue().Message() != nil {
					d, x, y = diff(el+".", v.Message(), mb.Get(k).Message())
				} else if !v.Equal(mb.Get(k)) {
					d, x, y = el, fmt.Sprint(v), fmt.Sprint(mb.Get(k))
				}
				return d == ""
			})
			if d != "" {
				return d, x, y
			}
		case f.Message() != nil:
			if d, x, y := diff(name+".", va.Message(), vb.Message()); d != "" {
				return d, x, y
			}
		case !va.Equal(vb):
			return name, fmt.Sprint(va), fmt.Sprint(vb)
		}
	}
	return "", "", ""
}

func present(m protoreflect.Message, f protoreflect.FieldDescriptor) string {
	if m.Has(f) {
		return fmt.Sprint(m.Get(f))
	}
	return "unset"
}
