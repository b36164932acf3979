package grpcavro

// The message workload's Avro mapping: an Avro schema derived from a user's protobuf
// descriptor (MessageSchema), and a message's values converted to and from the
// natural Go values github.com/twmb/avro encodes (records as map[string]any). Kinds:
//
//	bool                                  boolean
//	int32, sint32, sfixed32               int
//	int64, sint64, sfixed64               long
//	uint32, fixed32                       long (the value; Avro has no unsigned type)
//	uint64, fixed64                       long (the same 64 bits, read back as uint64)
//	float, double                         float, double
//	string, bytes                         string, bytes
//	enum                                  enum of the value names (Avro enums are
//	                                      closed: a number without a name is refused)
//	message                               ["null", record] (a record per message type,
//	                                      named by its full name; a recursive type refers
//	                                      to itself by name); well-known types are
//	                                      records of their fields, like any message
//	optional scalar (proto3 optional)     ["null", T]
//	oneof                                 one field named as the oneof: ["null", one
//	                                      record per member, MSG_FIELD, holding the
//	                                      member's value in a field of its name]
//	repeated T                            array of T (a message element: its record)
//	map<string, V>                        map of V
//	map<K, V>, K not a string             array of records {key: K, value: V}
//
// Every field of a record is written (Avro has no field presence): a proto3 field at
// its zero value costs its zero's bytes (one for a number or an empty string), where
// protobuf writes nothing.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/twmb/avro"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// MessageService and MessageEchoPath are the echo's gRPC method, grpc-proto's
// (grpcproto.MessageEchoPath) with Avro bodies.
const (
	MessageService  = "wirebench.v1.MessageService"
	MessageEchoPath = "/" + MessageService + "/Echo"
)

// Message is a user's message as the Avro codec carries it: Codec encodes Msg with
// Schema, and decodes into Msg (a new message of the schema's type).
type Message struct {
	Schema *MessageSchema
	Msg    protoreflect.Message
}

// MessageSchema is the Avro schema of a protobuf message type. It is immutable and
// safe for concurrent use.
type MessageSchema struct {
	Desc protoreflect.MessageDescriptor
	Avro *avro.Schema
	JSON string // the schema as Avro JSON, for docs and other languages
}

// NewMessageSchema derives the Avro schema of md.
func NewMessageSchema(md protoreflect.MessageDescriptor) (*MessageSchema, error) {
	b := schemaBuilder{defined: map[string]bool{}}
	js, err := json.Marshal(b.record(md))
	if err != nil {
		return nil, err
	}
	s, err := avro.Parse(string(js))
	if err != nil {
		return nil, fmt.Errorf("avro schema of %s: %w", md.FullName(), err)
	}
	return &MessageSchema{Desc: md, Avro: s, JSON: string(js)}, nil
}

type schemaBuilder struct{ defined map[string]bool }

// named returns the schema of a named type: its definition the first time, its name
// after that.
func (b schemaBuilder) named(name string, def func() map[string]any) any {
	if b.defined[name] {
		return name
	}
	b.defined[name] = true
	return def()
}

func (b schemaBuilder) record(md protoreflect.MessageDescriptor) any {
	name := string(md.FullName())
	return b.named(name, func() map[string]any {
		var fields []any
		seenOneof := map[protoreflect.Name]bool{}
		fs := md.Fields()
		for i := 0; i < fs.Len(); i++ {
			f := fs.Get(i)
			if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() {
				if seenOneof[o.Name()] {
					continue
				}
				seenOneof[o.Name()] = true
				union := []any{"null"}
				for j := 0; j < o.Fields().Len(); j++ {
					mf := o.Fields().Get(j)
					union = append(union, map[string]any{"type": "record", "name": oneofRecord(md, mf),
						"fields": []any{map[string]any{"name": string(mf.Name()), "type": b.value(mf)}}})
				}
				fields = append(fields, map[string]any{"name": string(o.Name()), "type": union})
				continue
			}
			fields = append(fields, map[string]any{"name": string(f.Name()), "type": b.field(md, f)})
		}
		if fields == nil {
			fields = []any{}
		}
		return map[string]any{"type": "record", "name": name, "fields": fields}
	})
}

func oneofRecord(md protoreflect.MessageDescriptor, f protoreflect.FieldDescriptor) string {
	return string(md.FullName()) + "_" + string(f.Name())
}

func (b schemaBuilder) field(md protoreflect.MessageDescriptor, f protoreflect.FieldDescriptor) any {
	switch {
	case f.IsMap():
		if f.MapKey().Kind() == protoreflect.StringKind {
			return map[string]any{"type": "map", "values": b.value(f.MapValue())}
		}
		return map[string]any{"type": "array", "items": b.named(string(f.Message().FullName()), func() map[string]any {
			return map[string]any{"type": "record", "name": string(f.Message().FullName()), "fields": []any{
				map[string]any{"name": "key", "type": b.value(f.MapKey())},
				map[string]any{"name": "value", "type": b.value(f.MapValue())},
			}}
		})}
	case f.IsList():
		return map[string]any{"type": "array", "items": b.value(f)}
	case f.Message() != nil, f.HasOptionalKeyword():
		return []any{"null", b.value(f)}
	}
	return b.value(f)
}

// value is the Avro type of one value of f (an element, a map value, a member).
func (b schemaBuilder) value(f protoreflect.FieldDescriptor) any {
	switch f.Kind() {
	case protoreflect.BoolKind:
		return "boolean"
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return "int"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "long"
	case protoreflect.FloatKind:
		return "float"
	case protoreflect.DoubleKind:
		return "double"
	case protoreflect.StringKind:
		return "string"
	case protoreflect.BytesKind:
		return "bytes"
	case protoreflect.EnumKind:
		ed := f.Enum()
		return b.named(string(ed.FullName()), func() map[string]any {
			var symbols []string
			for i := 0; i < ed.Values().Len(); i++ {
				symbols = append(symbols, string(ed.Values().Get(i).Name()))
			}
			return map[string]any{"type": "enum", "name": string(ed.FullName()), "symbols": symbols}
		})
	}
	return b.record(f.Message())
}

// Encode appends m in the schema's Avro binary encoding.
func (s *MessageSchema) Encode(dst []byte, m protoreflect.Message) ([]byte, error) {
	v, err := toNative(m)
	if err != nil {
		return nil, err
	}
	return s.Avro.AppendEncode(dst, v)
}

// Decode reads one record of the schema from b into m (a new message of the type).
func (s *MessageSchema) Decode(b []byte, m protoreflect.Message) error {
	var v any
	rest, err := s.Avro.Decode(b, &v, avro.TaggedUnions())
	if err != nil {
		return fmt.Errorf("avro %s: %w", s.Desc.FullName(), err)
	}
	if len(rest) != 0 {
		return fmt.Errorf("avro %s: %d bytes after the record", s.Desc.FullName(), len(rest))
	}
	rec, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("avro %s: decoded a %T, not a record", s.Desc.FullName(), v)
	}
	return fromNative(rec, m)
}

// toNative is m as the record twmb/avro encodes: unions tagged with their branch's
// name, so the branch is explicit.
func toNative(m protoreflect.Message) (map[string]any, error) {
	md := m.Descriptor()
	out := make(map[string]any, md.Fields().Len())
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() {
			if _, ok := out[string(o.Name())]; !ok {
				out[string(o.Name())] = nil
			}
			if !m.Has(f) {
				continue
			}
			v, err := valueNative(f, m.Get(f))
			if err != nil {
				return nil, err
			}
			out[string(o.Name())] = map[string]any{oneofRecord(md, f): map[string]any{string(f.Name()): v}}
			continue
		}
		v := m.Get(f)
		var err error
		var nv any
		switch {
		case f.IsMap():
			nv, err = mapNative(f, v.Map())
		case f.IsList():
			l := v.List()
			arr := make([]any, l.Len())
			for j := range arr {
				if arr[j], err = valueNative(f, l.Get(j)); err != nil {
					break
				}
			}
			nv = arr
		case f.Message() != nil || f.HasOptionalKeyword():
			if m.Has(f) {
				var inner any
				if inner, err = valueNative(f, v); err == nil {
					nv = map[string]any{branchName(f): inner}
				}
			}
		default:
			nv, err = valueNative(f, v)
		}
		if err != nil {
			return nil, err
		}
		out[string(f.Name())] = nv
	}
	return out, nil
}

// branchName is the name of f's non-null branch in a ["null", T] union.
func branchName(f protoreflect.FieldDescriptor) string {
	switch f.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return string(f.Message().FullName())
	case protoreflect.EnumKind:
		return string(f.Enum().FullName())
	}
	b := schemaBuilder{defined: map[string]bool{}}
	return b.value(f).(string)
}

func mapNative(f protoreflect.FieldDescriptor, mp protoreflect.Map) (any, error) {
	kf, vf := f.MapKey(), f.MapValue()
	var err error
	if kf.Kind() == protoreflect.StringKind {
		out := make(map[string]any, mp.Len())
		mp.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
			out[k.String()], err = valueNative(vf, v)
			return err == nil
		})
		return out, err
	}
	out := make([]any, 0, mp.Len())
	mp.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
		var kv, vv any
		if kv, err = valueNative(kf, k.Value()); err != nil {
			return false
		}
		if vv, err = valueNative(vf, v); err != nil {
			return false
		}
		out = append(out, map[string]any{"key": kv, "value": vv})
		return true
	})
	return out, err
}

func valueNative(f protoreflect.FieldDescriptor, v protoreflect.Value) (any, error) {
	switch f.Kind() {
	case protoreflect.BoolKind:
		return v.Bool(), nil
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return int32(v.Int()), nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return v.Int(), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return int64(v.Uint()), nil
	case protoreflect.FloatKind:
		return float32(v.Float()), nil
	case protoreflect.DoubleKind:
		return v.Float(), nil
	case protoreflect.StringKind:
		return v.String(), nil
	case protoreflect.BytesKind:
		return v.Bytes(), nil
	case protoreflect.EnumKind:
		ev := f.Enum().Values().ByNumber(v.Enum())
		if ev == nil {
			return nil, fmt.Errorf("avro: %s value %d has no name, and Avro enums are closed", f.Enum().FullName(), v.Enum())
		}
		return string(ev.Name()), nil
	}
	return toNative(v.Message())
}

// fromNative fills m from a record decoded with tagged unions.
func fromNative(rec map[string]any, m protoreflect.Message) error {
	md := m.Descriptor()
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() {
			if o.Fields().Get(0) != f {
				continue // the oneof is read once, at its first member
			}
			tagged, ok := rec[string(o.Name())].(map[string]any)
			if !ok {
				continue // null: no member set
			}
			for _, wrapper := range tagged {
				inner, ok := wrapper.(map[string]any)
				if !ok || len(inner) != 1 {
					return fmt.Errorf("avro %s: oneof %s is not a member's record", md.FullName(), o.Name())
				}
				for name, v := range inner {
					mf := o.Fields().ByName(protoreflect.Name(name))
					if mf == nil {
						return fmt.Errorf("avro %s: oneof %s has no member %s", md.FullName(), o.Name(), name)
					}
					pv, err := valueProto(m, mf, v)
					if err != nil {
						return err
					}
					m.Set(mf, pv)
				}
			}
			continue
		}
		nv := rec[string(f.Name())]
		switch {
		case f.IsMap():
			if err := mapProto(m, f, nv); err != nil {
				return err
			}
		case f.IsList():
			arr, _ := nv.([]any)
			l := m.Mutable(f).List()
			for _, e := range arr {
				pv, err := elemProto(l, f, e)
				if err != nil {
					return err
				}
				l.Append(pv)
			}
		case f.Message() != nil || f.HasOptionalKeyword():
			tagged, ok := nv.(map[string]any)
			if !ok {
				continue // null
			}
			for _, v := range tagged {
				pv, err := valueProto(m, f, v)
				if err != nil {
					return err
				}
				m.Set(f, pv)
			}
		default:
			pv, err := scalarProto(f, nv)
			if err != nil {
				return err
			}
			m.Set(f, pv)
		}
	}
	return nil
}

func elemProto(l protoreflect.List, f protoreflect.FieldDescriptor, v any) (protoreflect.Value, error) {
	if f.Message() == nil {
		return scalarProto(f, v)
	}
	e := l.NewElement()
	rec, ok := v.(map[string]any)
	if !ok {
		return protoreflect.Value{}, fmt.Errorf("avro %s: element %T, not a record", f.FullName(), v)
	}
	return e, fromNative(rec, e.Message())
}

// valueProto is a singular field's value (a message field's is a new message of m).
func valueProto(m protoreflect.Message, f protoreflect.FieldDescriptor, v any) (protoreflect.Value, error) {
	if f.Message() == nil {
		return scalarProto(f, v)
	}
	rec, ok := v.(map[string]any)
	if !ok {
		return protoreflect.Value{}, fmt.Errorf("avro %s: %T, not a record", f.FullName(), v)
	}
	pv := m.NewField(f)
	return pv, fromNative(rec, pv.Message())
}

func mapProto(m protoreflect.Message, f protoreflect.FieldDescriptor, nv any) error {
	kf, vf := f.MapKey(), f.MapValue()
	mp := m.Mutable(f).Map()
	set := func(k, v any) error {
		pk, err := scalarProto(kf, k)
		if err != nil {
			return err
		}
		var pv protoreflect.Value
		if vf.Message() != nil {
			rec, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("avro %s: map value %T, not a record", f.FullName(), v)
			}
			pv = mp.NewValue()
			if err := fromNative(rec, pv.Message()); err != nil {
				return err
			}
		} else if pv, err = scalarProto(vf, v); err != nil {
			return err
		}
		mp.Set(pk.MapKey(), pv)
		return nil
	}
	switch nv := nv.(type) {
	case map[string]any:
		for k, v := range nv {
			if err := set(k, v); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range nv {
			entry, ok := e.(map[string]any)
			if !ok {
				return fmt.Errorf("avro %s: map entry %T, not a record", f.FullName(), e)
			}
			if err := set(entry["key"], entry["value"]); err != nil {
				return err
			}
		}
	}
	return nil
}

func scalarProto(f protoreflect.FieldDescriptor, v any) (protoreflect.Value, error) {
	bad := func() (protoreflect.Value, error) {
		return protoreflect.Value{}, fmt.Errorf("avro %s: a %T for a %v", f.FullName(), v, f.Kind())
	}
	switch f.Kind() {
	case protoreflect.BoolKind:
		if b, ok := v.(bool); ok {
			return protoreflect.ValueOfBool(b), nil
		}
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		if n, ok := v.(int32); ok {
			return protoreflect.ValueOfInt32(n), nil
		}
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		if n, ok := v.(int64); ok {
			return protoreflect.ValueOfInt64(n), nil
		}
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		if n, ok := v.(int64); ok && n >= 0 && n <= 1<<32-1 {
			return protoreflect.ValueOfUint32(uint32(n)), nil
		}
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		if n, ok := v.(int64); ok {
			return protoreflect.ValueOfUint64(uint64(n)), nil
		}
	case protoreflect.FloatKind:
		if x, ok := v.(float32); ok {
			return protoreflect.ValueOfFloat32(x), nil
		}
	case protoreflect.DoubleKind:
		if x, ok := v.(float64); ok {
			return protoreflect.ValueOfFloat64(x), nil
		}
	case protoreflect.StringKind:
		if s, ok := v.(string); ok {
			return protoreflect.ValueOfString(strings.Clone(s)), nil
		}
	case protoreflect.BytesKind:
		if b, ok := v.([]byte); ok {
			return protoreflect.ValueOfBytes(bytes.Clone(b)), nil
		}
	case protoreflect.EnumKind:
		if s, ok := v.(string); ok {
			if ev := f.Enum().Values().ByName(protoreflect.Name(s)); ev != nil {
				return protoreflect.ValueOfEnum(ev.Number()), nil
			}
		}
	}
	return bad()
}
