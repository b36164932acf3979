package thriftrpc

// The message workload's mapping: a user's protobuf message as a Thrift struct whose
// field ids are the proto field numbers, read and written from the descriptor with
// Thrift's own protocols (binary or compact), as code generated from an IDL with the
// same ids would. Kinds:
//
//	bool                                  BOOL
//	int32, sint32, sfixed32, enum         I32 (an enum by its number)
//	int64, sint64, sfixed64               I64
//	uint32, fixed32                       I64 (the value; Thrift has no unsigned type)
//	uint64, fixed64                       I64 (the same 64 bits, read back as uint64)
//	float, double                         DOUBLE (a float widens exactly)
//	string                                STRING
//	bytes                                 STRING (Thrift's binary)
//	message (well-known types included)   STRUCT of its fields by number
//	repeated T                            LIST<T>
//	map<K, V>                             MAP<K, V>
//	oneof                                 its members as optional fields; one is written
//
// A field is written when the message has it (protoreflect's Has: a proto3 scalar
// when not zero, a list or map when not empty, a message or oneof member when set),
// so an echo decodes to a message proto.Equal to the one sent. A field id the type
// does not have is skipped, as Thrift skips unknown fields; a known id with another
// Thrift type is an error.

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/thrift/lib/go/thrift"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// MessageMethod is the service method of the echo: echoMessage(1: the message)
// returns (0: the message).
const MessageMethod = "echoMessage"

// MessageArgs and MessageResult are the method's argument and result structs around
// a message (dynamic, usually); their Read fills Msg, which must be a new message of
// the type.
type (
	MessageArgs   struct{ Msg protoreflect.Message }
	MessageResult struct{ Msg protoreflect.Message }
)

var (
	_ thrift.TStruct = (*MessageArgs)(nil)
	_ thrift.TStruct = (*MessageResult)(nil)
)

func (a *MessageArgs) Write(ctx context.Context, p thrift.TProtocol) error {
	return writeWrapper(ctx, p, "echoMessage_args", 1, a.Msg)
}
func (a *MessageArgs) Read(ctx context.Context, p thrift.TProtocol) error {
	return readWrapper(ctx, p, 1, a.Msg)
}
func (r *MessageResult) Write(ctx context.Context, p thrift.TProtocol) error {
	return writeWrapper(ctx, p, "echoMessage_result", 0, r.Msg)
}
func (r *MessageResult) Read(ctx context.Context, p thrift.TProtocol) error {
	return readWrapper(ctx, p, 0, r.Msg)
}

func writeWrapper(ctx context.Context, p thrift.TProtocol, name string, id int16, m protoreflect.Message) error {
	if err := p.WriteStructBegin(ctx, name); err != nil {
		return err
	}
	if err := p.WriteFieldBegin(ctx, "message", thrift.STRUCT, id); err != nil {
		return err
	}
	if err := WriteMessage(ctx, p, m); err != nil {
		return err
	}
	if err := p.WriteFieldEnd(ctx); err != nil {
		return err
	}
	if err := p.WriteFieldStop(ctx); err != nil {
		return err
	}
	return p.WriteStructEnd(ctx)
}

func readWrapper(ctx context.Context, p thrift.TProtocol, id int16, m protoreflect.Message) error {
	if _, err := p.ReadStructBegin(ctx); err != nil {
		return err
	}
	found := false
	for {
		_, t, fid, err := p.ReadFieldBegin(ctx)
		if err != nil {
			return err
		}
		if t == thrift.STOP {
			break
		}
		if fid == id && t == thrift.STRUCT {
			if err := ReadMessage(ctx, p, m); err != nil {
				return err
			}
			found = true
		} else if err := p.Skip(ctx, t); err != nil {
			return err
		}
		if err := p.ReadFieldEnd(ctx); err != nil {
			return err
		}
	}
	if !found {
		return thrift.NewTProtocolExceptionWithType(thrift.INVALID_DATA, fmt.Errorf("%s: no message (field %d)", MessageMethod, id))
	}
	return p.ReadStructEnd(ctx)
}

// TypeOf is the Thrift type of one value of a field of kind k (the element type of a
// list, a map's key or value type).
func TypeOf(f protoreflect.FieldDescriptor) thrift.TType {
	switch f.Kind() {
	case protoreflect.BoolKind:
		return thrift.BOOL
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind, protoreflect.EnumKind:
		return thrift.I32
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return thrift.I64
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return thrift.DOUBLE
	case protoreflect.StringKind, protoreflect.BytesKind:
		return thrift.STRING
	}
	return thrift.STRUCT // message, group
}

// fieldType is the Thrift type of field f as a whole.
func fieldType(f protoreflect.FieldDescriptor) thrift.TType {
	switch {
	case f.IsMap():
		return thrift.MAP
	case f.IsList():
		return thrift.LIST
	}
	return TypeOf(f)
}

// WriteMessage writes m as a Thrift struct of its fields by number.
func WriteMessage(ctx context.Context, p thrift.TProtocol, m protoreflect.Message) error {
	md := m.Descriptor()
	if err := p.WriteStructBegin(ctx, string(md.Name())); err != nil {
		return err
	}
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if !m.Has(f) {
			continue
		}
		if err := p.WriteFieldBegin(ctx, string(f.Name()), fieldType(f), int16(f.Number())); err != nil {
			return err
		}
		v := m.Get(f)
		var err error
		switch {
		case f.IsMap():
			err = writeMap(ctx, p, f, v.Map())
		case f.IsList():
			err = writeList(ctx, p, f, v.List())
		default:
			err = writeValue(ctx, p, f, v)
		}
		if err != nil {
			return err
		}
		if err := p.WriteFieldEnd(ctx); err != nil {
			return err
		}
	}
	if err := p.WriteFieldStop(ctx); err != nil {
		return err
	}
	return p.WriteStructEnd(ctx)
}

func writeList(ctx context.Context, p thrift.TProtocol, f protoreflect.FieldDescriptor, l protoreflect.List) error {
	if err := p.WriteListBegin(ctx, TypeOf(f), l.Len()); err != nil {
		return err
	}
	for i := 0; i < l.Len(); i++ {
		if err := writeValue(ctx, p, f, l.Get(i)); err != nil {
			return err
		}
	}
	return p.WriteListEnd(ctx)
}

func writeMap(ctx context.Context, p thrift.TProtocol, f protoreflect.FieldDescriptor, mp protoreflect.Map) error {
	kf, vf := f.MapKey(), f.MapValue()
	if err := p.WriteMapBegin(ctx, TypeOf(kf), TypeOf(vf), mp.Len()); err != nil {
		return err
	}
	var err error
	mp.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
		if err = writeValue(ctx, p, kf, k.Value()); err == nil {
			err = writeValue(ctx, p, vf, v)
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	return p.WriteMapEnd(ctx)
}

func writeValue(ctx context.Context, p thrift.TProtocol, f protoreflect.FieldDescriptor, v protoreflect.Value) error {
	switch f.Kind() {
	case protoreflect.BoolKind:
		return p.WriteBool(ctx, v.Bool())
	case protoreflect.EnumKind:
		return p.WriteI32(ctx, int32(v.Enum()))
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return p.WriteI32(ctx, int32(v.Int()))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return p.WriteI64(ctx, v.Int())
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return p.WriteI64(ctx, int64(v.Uint()))
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return p.WriteDouble(ctx, v.Float())
	case protoreflect.StringKind:
		return p.WriteString(ctx, v.String())
	case protoreflect.BytesKind:
		return p.WriteBinary(ctx, v.Bytes())
	}
	return WriteMessage(ctx, p, v.Message())
}

// ReadMessage reads a Thrift struct into m (a new message), its fields by number.
func ReadMessage(ctx context.Context, p thrift.TProtocol, m protoreflect.Message) error {
	md := m.Descriptor()
	if _, err := p.ReadStructBegin(ctx); err != nil {
		return err
	}
	for {
		_, t, id, err := p.ReadFieldBegin(ctx)
		if err != nil {
			return err
		}
		if t == thrift.STOP {
			break
		}
		f := md.Fields().ByNumber(protoreflect.FieldNumber(id))
		switch {
		case f == nil:
			err = p.Skip(ctx, t)
		case t != fieldType(f):
			err = bad("%s.%s (field %d) is a %v, not a %v", md.FullName(), f.Name(), id, t, fieldType(f))
		case f.IsMap():
			err = readMap(ctx, p, f, m.Mutable(f).Map())
		case f.IsList():
			err = readList(ctx, p, f, m.Mutable(f).List())
		case f.Message() != nil:
			err = ReadMessage(ctx, p, m.Mutable(f).Message())
		default:
			var v protoreflect.Value
			if v, err = readScalar(ctx, p, f); err == nil {
				m.Set(f, v)
			}
		}
		if err != nil {
			return err
		}
		if err := p.ReadFieldEnd(ctx); err != nil {
			return err
		}
	}
	return p.ReadStructEnd(ctx)
}

func bad(format string, args ...any) error {
	return thrift.NewTProtocolExceptionWithType(thrift.INVALID_DATA, fmt.Errorf(format, args...))
}

func readList(ctx context.Context, p thrift.TProtocol, f protoreflect.FieldDescriptor, l protoreflect.List) error {
	t, n, err := p.ReadListBegin(ctx)
	if err != nil {
		return err
	}
	if t != TypeOf(f) {
		return bad("list %s of %v, want %v", f.FullName(), t, TypeOf(f))
	}
	for range n {
		if f.Message() != nil {
			v := l.NewElement()
			if err := ReadMessage(ctx, p, v.Message()); err != nil {
				return err
			}
			l.Append(v)
			continue
		}
		v, err := readScalar(ctx, p, f)
		if err != nil {
			return err
		}
		l.Append(v)
	}
	return p.ReadListEnd(ctx)
}

func readMap(ctx context.Context, p thrift.TProtocol, f protoreflect.FieldDescriptor, mp protoreflect.Map) error {
	kf, vf := f.MapKey(), f.MapValue()
	kt, vt, n, err := p.ReadMapBegin(ctx)
	if err != nil {
		return err
	}
	if n > 0 && (kt != TypeOf(kf) || vt != TypeOf(vf)) {
		return bad("map %s of %v to %v, want %v to %v", f.FullName(), kt, vt, TypeOf(kf), TypeOf(vf))
	}
	for range n {
		k, err := readScalar(ctx, p, kf)
		if err != nil {
			return err
		}
		var v protoreflect.Value
		if vf.Message() != nil {
			v = mp.NewValue()
			err = ReadMessage(ctx, p, v.Message())
		} else {
			v, err = readScalar(ctx, p, vf)
		}
		if err != nil {
			return err
		}
		mp.Set(k.MapKey(), v)
	}
	return p.ReadMapEnd(ctx)
}

func readScalar(ctx context.Context, p thrift.TProtocol, f protoreflect.FieldDescriptor) (protoreflect.Value, error) {
	switch f.Kind() {
	case protoreflect.BoolKind:
		b, err := p.ReadBool(ctx)
		return protoreflect.ValueOfBool(b), err
	case protoreflect.EnumKind:
		n, err := p.ReadI32(ctx)
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(n)), err
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		n, err := p.ReadI32(ctx)
		return protoreflect.ValueOfInt32(n), err
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := p.ReadI64(ctx)
		return protoreflect.ValueOfInt64(n), err
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		n, err := p.ReadI64(ctx)
		if err == nil && (n < 0 || n > math.MaxUint32) {
			err = bad("%s: %d is out of uint32's range", f.FullName(), n)
		}
		return protoreflect.ValueOfUint32(uint32(n)), err
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		n, err := p.ReadI64(ctx)
		return protoreflect.ValueOfUint64(uint64(n)), err
	case protoreflect.FloatKind:
		d, err := p.ReadDouble(ctx)
		return protoreflect.ValueOfFloat32(float32(d)), err
	case protoreflect.DoubleKind:
		d, err := p.ReadDouble(ctx)
		return protoreflect.ValueOfFloat64(d), err
	case protoreflect.StringKind:
		s, err := p.ReadString(ctx)
		return protoreflect.ValueOfString(s), err
	case protoreflect.BytesKind:
		b, err := p.ReadBinary(ctx)
		return protoreflect.ValueOfBytes(b), err
	}
	return protoreflect.Value{}, bad("%s: kind %v is not a scalar", f.FullName(), f.Kind())
}
