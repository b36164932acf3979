package instrument

// The instrument's HTTP/2 framing against golang.org/x/net/http2.Framer, the library
// beside it (already imported for HPACK), doing the same job on the frames of a gRPC
// unary call and of a server stream.
//
// What x/net's Framer could replace is the framing only: writing frames into the
// connection's buffer (appendHeadersFrame, appendDataFrame, appendWindowUpdate,
// appendPingAck) and cutting the bytes read into frames (reader.frames, payload and
// the checks of reader.frame). Streams, flow control, HPACK and the batching of
// h2conn.go and h2read.go stay whichever frames the bytes. So both sides here run
// the same handlers (reader.data, reader.headers, reader.block, with the same HPACK
// decoder) and differ only in the framing:
//
//   - framer=instrument: the functions the instrument calls, on the bytes it read
//     into its buffer (reader.frames), and writing into its write buffer;
//   - framer=xnet: http2.Framer with SetReuseFrames, reading from a bytes.Reader over
//     the same bytes (the socket's read is a copy either way) and writing into an
//     io.Writer that appends to the same kind of buffer. Its DATA is given the
//     message with its prefix already in place, as a codec could encode it after five
//     reserved bytes: the copy that joining them would cost is not charged to it.
//
// Run alone (docs/protocols.md, "The instrument's framing on trial", has the
// published figures and the command):
//
//	go test -run '^$' -bench '^BenchmarkFramer$' -benchmem -count 6 ./stack/instrument/

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// The calls' frames. Sizes: GetPerson's answer is 269 bytes of DATA, prefix
// included (docs/peers.md); a compact trade 36.5 bytes on average (docs/codecs.md),
// so 36 here; PersonId{id: 3} is 2 bytes of protobuf.
const (
	benchStreamID    = 1
	benchAnswerBytes = 269
	benchTradeBytes  = 36
	benchTrades      = 100
)

var (
	benchRequest = []byte{0x08, 0x03}
	benchPing    = [8]byte{1, 2, 3, 4, 5, 6, 7, 8}
)

// appendWriter is the connection's write buffer as an io.Writer, for the Framer.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// requestBlock is a request's header block as the instrument sends it after the
// method's first call (every field indexed).
func requestBlock() []byte {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	fields := []hpack.HeaderField{
		{Name: ":method", Value: "POST"}, {Name: ":scheme", Value: "http"},
		{Name: ":path", Value: mGetPerson.path}, {Name: ":authority", Value: "127.0.0.1:19090"},
		{Name: "content-type", Value: "application/grpc"}, {Name: "user-agent", Value: userAgent},
		{Name: "te", Value: "trailers"},
	}
	for range 2 {
		buf.Reset()
		for _, f := range fields {
			enc.WriteField(f)
		}
	}
	return append([]byte(nil), buf.Bytes()...)
}

// writeJob is what the client writes for one call of a shape.
type writeJob struct {
	name    string
	control bool // a server stream: also the window updates and a PING's acknowledgement
}

var writeJobs = []writeJob{{"unary", false}, {"stream", true}}

// writeInstrument writes job's frames as the instrument does, into b.
func writeInstrument(b []byte, job writeJob, block, msg []byte) []byte {
	var pb [5]byte
	b = appendHeadersFrame(b, benchStreamID, http2.FlagHeadersEndHeaders, block)
	b = appendDataFrame(b, benchStreamID, http2.FlagDataEndStream, appendMessagePrefix(pb[:0], len(msg)), msg)
	if job.control {
		b = appendWindowUpdate(b, benchStreamID, streamWindow/4)
		b = appendWindowUpdate(b, 0, connWindow/2)
		b = appendPingAck(b, benchPing[:])
	}
	return b
}

// writeXNet writes job's frames with fr, whose writer is w; prefixed is the message
// with its gRPC prefix.
func writeXNet(fr *http2.Framer, job writeJob, block, prefixed []byte) error {
	err := errors.Join(
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: benchStreamID, BlockFragment: block, EndHeaders: true}),
		fr.WriteData(benchStreamID, true, prefixed))
	if job.control {
		err = errors.Join(err,
			fr.WriteWindowUpdate(benchStreamID, streamWindow/4),
			fr.WriteWindowUpdate(0, connWindow/2),
			fr.WritePing(true, benchPing))
	}
	return err
}

// readJob is what the server sends for one call of a shape: warm primes the HPACK
// decoder (a first answer, whose fields enter the dynamic table), then input is the
// answer in the steady state, read again on every iteration.
type readJob struct {
	name        string
	warm, input []byte
	streaming   bool
	data        []byte // the DATA payloads the call receives, in order
	status      int    // the answer's :status and grpc-status
	grpcStatus  int
	ack         []byte // the frames the reader owes the server: a PING's acknowledgement
	connInc     int64  // the growth of the connection's send window
}

// readJobs builds the server's frames with x/net's Framer and HPACK encoder, apart
// from the code under test: a unary answer (HEADERS, DATA, trailers), the same with
// its header block split over a CONTINUATION, and a server stream (HEADERS, a DATA
// per trade, a connection WINDOW_UPDATE and a PING midway, trailers).
func readJobs() []readJob {
	frames := func(write func(fr *http2.Framer)) []byte {
		var b bytes.Buffer
		write(http2.NewFramer(&b, nil))
		return b.Bytes()
	}
	// Each job is its own connection: its encoder's dynamic table starts empty.
	var (
		hbuf bytes.Buffer
		enc  *hpack.Encoder
	)
	block := func(fields ...string) []byte {
		hbuf.Reset()
		for i := 0; i+1 < len(fields); i += 2 {
			enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
		}
		return append([]byte(nil), hbuf.Bytes()...)
	}
	// warmAndInput is a connection's first answer and its second.
	warmAndInput := func(write func(fr *http2.Framer)) (warm, input []byte) {
		enc = hpack.NewEncoder(&hbuf)
		return frames(write), frames(write)
	}
	message := func(n int, fill byte) []byte {
		m := appendMessagePrefixTest(nil, n-5)
		return append(m, bytes.Repeat([]byte{fill}, n-5)...)
	}
	answer := message(benchAnswerBytes, 'p')
	var trades [][]byte
	for i := range benchTrades {
		trades = append(trades, message(benchTradeBytes, byte('a'+i%26)))
	}
	var ping bytes.Buffer
	http2.NewFramer(&ping, nil).WritePing(true, benchPing)

	unary := func(split bool) func(fr *http2.Framer) {
		return func(fr *http2.Framer) {
			h := block(":status", "200", "content-type", "application/grpc")
			if split {
				fr.WriteHeaders(http2.HeadersFrameParam{StreamID: benchStreamID, BlockFragment: h[:len(h)/2]})
				fr.WriteContinuation(benchStreamID, true, h[len(h)/2:])
			} else {
				fr.WriteHeaders(http2.HeadersFrameParam{StreamID: benchStreamID, EndHeaders: true, BlockFragment: h})
			}
			fr.WriteData(benchStreamID, false, answer)
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: benchStreamID, EndHeaders: true, EndStream: true,
				BlockFragment: block("grpc-status", "0", "grpc-message", "")})
		}
	}
	stream := func(fr *http2.Framer) {
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: benchStreamID, EndHeaders: true,
			BlockFragment: block(":status", "200", "content-type", "application/grpc")})
		for i, t := range trades {
			if i == len(trades)/2 {
				fr.WriteWindowUpdate(0, 1<<16)
				fr.WritePing(false, benchPing)
			}
			fr.WriteData(benchStreamID, false, t)
		}
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: benchStreamID, EndHeaders: true, EndStream: true,
			BlockFragment: block("grpc-status", "0", "grpc-message", "")})
	}
	jobs := []readJob{
		{name: "unary", data: answer},
		{name: "unary-continuation", data: answer},
		{name: "stream", streaming: true, data: bytes.Join(trades, nil), ack: ping.Bytes(), connInc: 1 << 16},
	}
	for i, write := range []func(fr *http2.Framer){unary(false), unary(true), stream} {
		jobs[i].warm, jobs[i].input = warmAndInput(write)
		jobs[i].status = 200
	}
	return jobs
}

// appendMessagePrefixTest is gRPC's message prefix, written here apart from the code
// under test.
func appendMessagePrefixTest(b []byte, n int) []byte {
	return append(b, 0, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}

// benchConn is a connection with no socket whose reader reads a job's bytes.
type benchConn struct {
	c  *h2conn
	st *stream
	// The x/net side: a Framer reading from in and writing the acknowledgements into
	// ctl, which replaces the reader's ctl after each read.
	in  bytes.Reader
	fr  *http2.Framer
	ctl appendWriter
}

func newBenchConn() *benchConn {
	c := &h2conn{cl: &h2Client{limit: 16 << 20}, streams: map[uint32]*stream{}}
	c.r.init(c)
	b := &benchConn{c: c, st: &stream{wake: make(chan struct{}, 1), grpcStatus: noStatus}}
	b.fr = http2.NewFramer(&b.ctl, &b.in)
	b.fr.SetReuseFrames()
	return b
}

// open readies the stream and the reader for another answer.
func (b *benchConn) open(job *readJob) {
	r := &b.c.r
	b.st.reset()
	b.st.id, b.st.streaming = benchStreamID, job.streaming
	b.c.streams[benchStreamID] = b.st
	r.woken, r.ctl, r.connInc, r.ended, r.unacked = r.woken[:0], r.ctl[:0], 0, 0, 0
	b.ctl.b = b.ctl.b[:0]
}

// readInstrument is the instrument's reader on input, as read from the socket into
// its buffer.
func (b *benchConn) readInstrument(input []byte) error {
	r := &b.c.r
	r.pos, r.end = 0, copy(r.buf, input)
	err := r.frames()
	if err == nil && r.end != 0 {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// readXNet is the same with x/net's Framer cutting the frames: the frame handlers
// are the instrument's, given what the Framer parsed.
func (b *benchConn) readXNet(input []byte) error {
	r := &b.c.r
	b.in.Reset(input)
	for {
		f, err := b.fr.ReadFrame()
		if err == io.EOF {
			r.ctl = append(r.ctl, b.ctl.b...)
			return nil
		}
		if err != nil {
			return err
		}
		h := f.Header()
		switch f := f.(type) {
		case *http2.DataFrame:
			err = r.data(h.Flags&http2.FlagDataEndStream, h.StreamID, f.Data())
		case *http2.HeadersFrame:
			err = r.headers(h.Flags&(http2.FlagHeadersEndStream|http2.FlagHeadersEndHeaders), h.StreamID, f.HeaderBlockFragment())
		case *http2.ContinuationFrame:
			err = r.block(f.HeaderBlockFragment(), f.HeadersEnded())
		case *http2.WindowUpdateFrame:
			if h.StreamID == 0 {
				r.connInc += int64(f.Increment)
			} else {
				r.streamIncs = append(r.streamIncs, streamInc{h.StreamID, int64(f.Increment)})
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				err = b.fr.WritePing(true, f.Data)
			}
		default:
			err = r.frame(h.Type, h.Flags, h.StreamID, nil) // not in these answers
		}
		if err != nil {
			return err
		}
	}
}

// TestFramersAgree checks that the benchmark's two sides do the same job: for
// writing, the same bytes, which x/net's Framer reads back as the frames written; for
// reading, the call's answer as the server sent it (status, grpc-status, the DATA in
// order), its caller woken, and the same acknowledgements owed.
func TestFramersAgree(t *testing.T) {
	block := requestBlock()
	prefixed := append(appendMessagePrefixTest(nil, len(benchRequest)), benchRequest...)
	for _, job := range writeJobs {
		hand := writeInstrument(nil, job, block, benchRequest)
		var w appendWriter
		if err := writeXNet(http2.NewFramer(&w, nil), job, block, prefixed); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(hand, w.b) {
			t.Errorf("write %s: the instrument wrote %x, x/net %x", job.name, hand, w.b)
		}
		fr := http2.NewFramer(nil, bytes.NewReader(hand))
		var types []http2.FrameType
		for {
			f, err := fr.ReadFrame()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("write %s: x/net reads the instrument's frames: %v", job.name, err)
			}
			types = append(types, f.Header().Type)
			if d, ok := f.(*http2.DataFrame); ok && (!bytes.Equal(d.Data(), prefixed) || !d.StreamEnded()) {
				t.Errorf("write %s: DATA %x (end %v), want %x ending the stream", job.name, d.Data(), d.StreamEnded(), prefixed)
			}
		}
		want := []http2.FrameType{http2.FrameHeaders, http2.FrameData}
		if job.control {
			want = append(want, http2.FrameWindowUpdate, http2.FrameWindowUpdate, http2.FramePing)
		}
		if !equalTypes(types, want) {
			t.Errorf("write %s: frames %v, want %v", job.name, types, want)
		}
	}
	for _, job := range readJobs() {
		for _, side := range []struct {
			name string
			read func(*benchConn, []byte) error
		}{{"instrument", (*benchConn).readInstrument}, {"xnet", (*benchConn).readXNet}} {
			b := newBenchConn()
			for _, input := range [][]byte{job.warm, job.input, job.input} {
				b.open(&job)
				if err := side.read(b, input); err != nil {
					t.Fatalf("read %s, %s: %v", job.name, side.name, err)
				}
				st, r := b.st, &b.c.r
				switch {
				case !st.ended || st.err != nil:
					t.Errorf("read %s, %s: stream ended %v, error %v", job.name, side.name, st.ended, st.err)
				case st.status != job.status || !st.grpcType || st.grpcStatus != job.grpcStatus:
					t.Errorf("read %s, %s: status %d, gRPC type %v, grpc-status %d", job.name, side.name, st.status, st.grpcType, st.grpcStatus)
				case !bytes.Equal(st.in, job.data):
					t.Errorf("read %s, %s: %d bytes of DATA, want %d", job.name, side.name, len(st.in), len(job.data))
				case len(r.woken) == 0 || r.woken[len(r.woken)-1] != st:
					t.Errorf("read %s, %s: the caller is not woken", job.name, side.name)
				case !bytes.Equal(r.ctl, job.ack) || r.connInc != job.connInc:
					t.Errorf("read %s, %s: owes %x and a window of +%d, want %x and +%d", job.name, side.name, r.ctl, r.connInc, job.ack, job.connInc)
				case b.c.streams[benchStreamID] != nil:
					t.Errorf("read %s, %s: the ended stream is still registered", job.name, side.name)
				}
			}
		}
	}
}

func equalTypes(a, b []http2.FrameType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BenchmarkFramer writes and reads each call's frames, named
// framer=…/call=…/op=… for benchstat's -col /framer. One op is one call's frames.
func BenchmarkFramer(b *testing.B) {
	block := requestBlock()
	prefixed := append(appendMessagePrefixTest(nil, len(benchRequest)), benchRequest...)
	for _, job := range writeJobs {
		b.Run("framer=instrument/call="+job.name+"/op=write", func(b *testing.B) {
			buf := make([]byte, 0, 4096)
			b.ReportAllocs()
			for b.Loop() {
				buf = writeInstrument(buf[:0], job, block, benchRequest)
			}
		})
		b.Run("framer=xnet/call="+job.name+"/op=write", func(b *testing.B) {
			w := &appendWriter{b: make([]byte, 0, 4096)}
			fr := http2.NewFramer(w, nil)
			b.ReportAllocs()
			for b.Loop() {
				w.b = w.b[:0]
				if err := writeXNet(fr, job, block, prefixed); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, job := range readJobs() {
		for _, side := range []struct {
			name string
			read func(*benchConn, []byte) error
		}{{"instrument", (*benchConn).readInstrument}, {"xnet", (*benchConn).readXNet}} {
			b.Run("framer="+side.name+"/call="+job.name+"/op=read", func(b *testing.B) {
				c := newBenchConn()
				c.open(&job)
				if err := side.read(c, job.warm); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					c.open(&job)
					if err := side.read(c, job.input); err != nil {
						b.Fatal(err)
					}
				}
				if !c.st.ended || c.st.err != nil {
					b.Fatalf("the call did not end well: %v", c.st.err)
				}
			})
		}
	}
}
