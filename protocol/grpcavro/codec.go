package grpcavro

import (
	"fmt"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"

	"github.com/wirebench/wirebench/contract/avrowire"
)

// CodecName is the gRPC content-subtype of Avro messages: the client's requests carry
// "content-type: application/grpc+avro", so any gRPC server that registers the codec
// picks it by that name (ours reads every request as Avro whatever it names).
const CodecName = "avro"

func init() { encoding.RegisterCodecV2(Codec{}) }

// Codec is the gRPC codec of Avro bodies: each message is one record of its
// avrowire type, encoded alone (no header, no schema fingerprint: both ends know the
// schema from the method). It is stateless and safe for concurrent use.
type Codec struct{}

var _ encoding.CodecV2 = Codec{}

// Name returns CodecName.
func (Codec) Name() string { return CodecName }

// Marshal encodes v, an avrowire.Message or a user's *Message (the message
// workload), into one buffer. The buffer starts at the
// size of the type's previous encoding (plus some slack), so it rarely grows; above
// grpc-go's pooling threshold it comes from grpc-go's buffer pool and returns to it
// once written, as the protobuf codec's do.
func (Codec) Marshal(v any) (mem.BufferSlice, error) {
	if um, ok := v.(*Message); ok {
		b, err := um.Schema.Encode(nil, um.Msg)
		if err != nil {
			return nil, err
		}
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	m, ok := v.(avrowire.Message)
	if !ok {
		return nil, fmt.Errorf("avro codec: cannot marshal %T, not an avrowire message", v)
	}
	t := m.AvroType()
	hint := t.SizeHint()
	hint += hint/8 + 16
	if mem.IsBelowBufferPoolingThreshold(hint) {
		b, err := avrowire.Append(make([]byte, 0, hint), m)
		if err != nil {
			return nil, err
		}
		t.NoteSize(len(b))
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	pool := mem.DefaultBufferPool()
	bp := pool.Get(hint)
	b, err := avrowire.Append((*bp)[:0], m)
	if err != nil {
		pool.Put(bp)
		return nil, err
	}
	t.NoteSize(len(b))
	if cap(b) != cap(*bp) { // outgrew the pooled buffer: append moved it
		pool.Put(bp)
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	*bp = b
	return mem.BufferSlice{mem.NewBuffer(bp, pool)}, nil
}

// Unmarshal decodes data, which must be exactly one record, into v, an
// avrowire.Message. Decoding is bounded by the message's length (see
// avrowire.Unmarshal), which grpc-go bounds by the receiver's message limit before
// reading it. Strings are copied: data is freed when Unmarshal returns.
func (Codec) Unmarshal(data mem.BufferSlice, v any) error {
	if um, ok := v.(*Message); ok {
		buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
		defer buf.Free()
		return um.Schema.Decode(buf.ReadOnlyData(), um.Msg)
	}
	m, ok := v.(avrowire.Message)
	if !ok {
		return fmt.Errorf("avro codec: cannot unmarshal into %T, not an avrowire message", v)
	}
	if len(data) == 1 {
		return avrowire.Unmarshal(data[0].ReadOnlyData(), m)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	return avrowire.Unmarshal(buf.ReadOnlyData(), m)
}
