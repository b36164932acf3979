package usermsg

import (
	"fmt"
	"math"
	"math/rand/v2"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// Shape is the size of a generated message: every string field, map key and value is
// StringLen bytes (ASCII), every bytes field BytesLen, and every repeated field and
// map has Repeated elements.
type Shape struct {
	StringLen, BytesLen, Repeated int
}

// maxDepth bounds how deep a generated message nests: a recursive type (a tree, or
// google.protobuf.Struct's values) stops there, its deeper message fields unset.
const maxDepth = 4

// Generate returns count messages of md made from seed: the same seed, count and
// shape give the same messages. Every field is set (one member of each oneof, taken
// in turn), with values across each kind's range: int64 and uint64 beyond 2^53 (so a
// JSON mapping that goes through a double would be caught), negative numbers,
// enums among the declared values, well-known types with valid values (a Timestamp
// within years 1-9999, a Duration within ±10000 years, a Struct of every JSON kind).
func Generate(md protoreflect.MessageDescriptor, seed uint64, count int, shape Shape) ([]proto.Message, error) {
	if count < 1 {
		return nil, fmt.Errorf("generate %s: count %d, want at least 1", md.FullName(), count)
	}
	g := &generator{r: rand.New(rand.NewPCG(seed, 0x77697265)), shape: shape}
	out := make([]proto.Message, count)
	for i := range out {
		m := dynamicpb.NewMessage(md)
		g.fill(m, 0, i)
		out[i] = m
	}
	return out, nil
}

type generator struct {
	r     *rand.Rand
	shape Shape
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-"

func (g *generator) text(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[g.r.IntN(len(letters))]
	}
	return string(b)
}

// fill sets m's fields; nth picks the member of each oneof (so that a run of
// messages covers every member).
func (g *generator) fill(m protoreflect.Message, depth, nth int) {
	md := m.Descriptor()
	if g.wellKnown(m, depth) {
		return
	}
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() {
			if o.Fields().Get(nth%o.Fields().Len()) != f {
				continue
			}
		}
		if f.Message() != nil && !f.IsMap() && depth+1 >= maxDepth {
			continue
		}
		switch {
		case f.IsMap():
			mp := m.Mutable(f).Map()
			for j := 0; j < g.shape.Repeated; j++ {
				k := g.mapKey(f.MapKey(), j)
				if f.MapValue().Message() != nil {
					if depth+1 >= maxDepth {
						break
					}
					v := mp.NewValue()
					g.fill(v.Message(), depth+1, j)
					mp.Set(k, v)
				} else {
					mp.Set(k, g.scalar(f.MapValue()))
				}
			}
		case f.IsList():
			l := m.Mutable(f).List()
			for j := 0; j < g.shape.Repeated; j++ {
				if f.Message() != nil {
					v := l.NewElement()
					g.fill(v.Message(), depth+1, j)
					l.Append(v)
				} else {
					l.Append(g.scalar(f))
				}
			}
		case f.Message() != nil:
			g.fill(m.Mutable(f).Message(), depth+1, nth)
		default:
			m.Set(f, g.scalar(f))
		}
	}
}

// mapKey is the j-th key of a map: distinct keys (a bool map has two at most).
func (g *generator) mapKey(f protoreflect.FieldDescriptor, j int) protoreflect.MapKey {
	switch f.Kind() {
	case protoreflect.StringKind:
		s := fmt.Sprintf("%d:", j)
		if n := g.shape.StringLen - len(s); n > 0 {
			s += g.text(n)
		}
		return protoreflect.ValueOfString(s).MapKey()
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(j%2 == 1).MapKey()
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(j) - int32(g.shape.Repeated/2)).MapKey()
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(j) + math.MaxUint32/2).MapKey()
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(j) + math.MaxUint64/2).MapKey()
	default: // int64 kinds
		return protoreflect.ValueOfInt64(int64(j) - math.MaxInt64/2).MapKey()
	}
}

func (g *generator) scalar(f protoreflect.FieldDescriptor) protoreflect.Value {
	r := g.r
	switch f.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(r.IntN(2) == 1)
	case protoreflect.EnumKind:
		vs := f.Enum().Values()
		return protoreflect.ValueOfEnum(vs.Get(r.IntN(vs.Len())).Number())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(r.Uint32()))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(r.Uint32())
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(int64(r.Uint64()))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(r.Uint64())
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(r.NormFloat64() * 1e6))
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(r.NormFloat64() * 1e12)
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(g.text(g.shape.StringLen))
	case protoreflect.BytesKind:
		b := make([]byte, g.shape.BytesLen)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return protoreflect.ValueOfBytes(b)
	}
	panic("usermsg: no generator for kind " + f.Kind().String())
}

// wellKnown fills the well-known types whose fields have rules of their own, and
// reports whether m was one.
func (g *generator) wellKnown(m protoreflect.Message, depth int) bool {
	fs := m.Descriptor().Fields()
	r := g.r
	switch m.Descriptor().FullName() {
	case "google.protobuf.Timestamp":
		// 0001-01-01 to 9999-12-31, as RFC 3339 (and protojson) allow.
		m.Set(fs.ByName("seconds"), protoreflect.ValueOfInt64(-62135596800+r.Int64N(253402300799+62135596800)))
		m.Set(fs.ByName("nanos"), protoreflect.ValueOfInt32(r.Int32N(1e9)))
	case "google.protobuf.Duration":
		s, n := r.Int64N(315576000000), r.Int32N(1e9)
		if r.IntN(2) == 1 { // seconds and nanos have one sign
			s, n = -s, -n
		}
		m.Set(fs.ByName("seconds"), protoreflect.ValueOfInt64(s))
		m.Set(fs.ByName("nanos"), protoreflect.ValueOfInt32(n))
	case "google.protobuf.Struct":
		mp := m.Mutable(fs.ByName("fields")).Map()
		for j := 0; j < max(g.shape.Repeated, 1); j++ {
			v := mp.NewValue()
			g.value(v.Message(), depth+1, j)
			mp.Set(protoreflect.ValueOfString(fmt.Sprintf("f%d", j)).MapKey(), v)
		}
	case "google.protobuf.Value":
		g.value(m, depth, r.IntN(6))
	case "google.protobuf.ListValue":
		l := m.Mutable(fs.ByName("values")).List()
		for j := 0; j < g.shape.Repeated; j++ {
			v := l.NewElement()
			g.value(v.Message(), depth+1, j)
			l.Append(v)
		}
	case "google.protobuf.Any", "google.protobuf.FieldMask":
		// An Any names a type the reader must know, and a FieldMask's paths have a
		// syntax of their own: left empty by the generator; a data file may set them.
	default:
		return false
	}
	return true
}

// value sets a google.protobuf.Value to the kind kind%6 names: null, a number (an
// integer, exact in a double), a string, a bool, a struct or a list (those two as
// null once deep enough).
func (g *generator) value(m protoreflect.Message, depth, kind int) {
	fs := m.Descriptor().Fields()
	k := kind % 6
	if k >= 4 && depth+1 >= maxDepth {
		k = 0
	}
	switch k {
	case 0:
		m.Set(fs.ByName("null_value"), protoreflect.ValueOfEnum(0))
	case 1:
		m.Set(fs.ByName("number_value"), protoreflect.ValueOfFloat64(float64(g.r.Int64N(1<<53))))
	case 2:
		m.Set(fs.ByName("string_value"), protoreflect.ValueOfString(g.text(g.shape.StringLen)))
	case 3:
		m.Set(fs.ByName("bool_value"), protoreflect.ValueOfBool(g.r.IntN(2) == 1))
	case 4:
		g.wellKnown(m.Mutable(fs.ByName("struct_value")).Message(), depth+1)
	case 5:
		g.wellKnown(m.Mutable(fs.ByName("list_value")).Message(), depth+1)
	}
}
