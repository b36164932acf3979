package instrument_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

// FuzzFrameReader gives the instrument's HTTP/2 frame reader (h2read.go) whatever a
// server might send after a valid handshake: the bytes of the input, then the end of
// the connection. Whatever they are, the call ends within its deadline, with an
// answer or an error, and nothing panics. The seeds are answers of each shape the
// reader handles (trailers only, headers and an empty message, a PING, a GOAWAY, a
// window update, a reset, a frame cut short, a frame over the size we take); the
// fuzzer mutates them. `make fuzz` runs it for 20 s; every `go test` runs the seeds.
func FuzzFrameReader(f *testing.F) {
	for _, seed := range frameSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		addr := protocoltest.Peer(t, func(c net.Conn) {
			// The client's preface and SETTINGS are read (and everything after them,
			// so the client never blocks writing); ours go first, then the input.
			closed := make(chan struct{})
			go func() { io.Copy(io.Discard, c); close(closed) }()
			var out bytes.Buffer
			fr := http2.NewFramer(&out, nil)
			fr.WriteSettings()
			fr.WriteSettingsAck()
			out.Write(data)
			c.Write(out.Bytes())
			if tc, ok := c.(*net.TCPConn); ok {
				tc.CloseWrite() // the end of the input is the end of what the server sends
			}
			select { // the connection ends when the client closes it, or after its deadline
			case <-closed:
			case <-time.After(3 * time.Second):
			}
		})
		s, err := protocol.LookupStack("grpc-proto", "instrument", protocol.ClientSide)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			cl, err := s.Dial(ctx, protocol.ClientConfig{Address: addr})
			if err != nil {
				return
			}
			defer cl.Close()
			cl.GetPerson(ctx, 1)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("a call given %x did not end within 10 s (its deadline was 2 s)", data)
		}
	})
}

// frameSeeds are server frames for stream 1, one answer shape each.
func frameSeeds() [][]byte {
	headers := func(fields ...string) []byte {
		var b bytes.Buffer
		enc := hpack.NewEncoder(&b)
		for i := 0; i+1 < len(fields); i += 2 {
			enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
		}
		return b.Bytes()
	}
	frames := func(write func(fr *http2.Framer)) []byte {
		var b bytes.Buffer
		write(http2.NewFramer(&b, nil))
		return b.Bytes()
	}
	ok := headers(":status", "200", "content-type", "application/grpc")
	return [][]byte{
		// Trailers only: NotFound.
		frames(func(fr *http2.Framer) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, EndHeaders: true, EndStream: true,
				BlockFragment: headers(":status", "200", "content-type", "application/grpc", "grpc-status", "5", "grpc-message", "no such person")})
		}),
		// Headers, an empty message, trailers.
		frames(func(fr *http2.Framer) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, EndHeaders: true, BlockFragment: ok})
			fr.WriteData(1, false, []byte{0, 0, 0, 0, 0})
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, EndHeaders: true, EndStream: true, BlockFragment: headers("grpc-status", "0")})
		}),
		// Headers split over a CONTINUATION, then a message claiming more than it has.
		frames(func(fr *http2.Framer) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: ok[:2]})
			fr.WriteContinuation(1, true, ok[2:])
			fr.WriteData(1, true, []byte{0, 0, 0, 1, 0, 8})
		}),
		frames(func(fr *http2.Framer) { fr.WritePing(false, [8]byte{1, 2, 3, 4, 5, 6, 7, 8}) }),
		frames(func(fr *http2.Framer) { fr.WriteGoAway(0, http2.ErrCodeEnhanceYourCalm, []byte("bye")) }),
		frames(func(fr *http2.Framer) { fr.WriteWindowUpdate(0, 1<<20); fr.WriteWindowUpdate(1, 0) }),
		frames(func(fr *http2.Framer) { fr.WriteRSTStream(1, http2.ErrCodeRefusedStream) }),
		frames(func(fr *http2.Framer) {
			fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 31})
		}),
		{0, 0, 9, byte(http2.FrameData), 0, 0, 0, 0, 1, 0, 0},    // cut short
		{0xff, 0xff, 0xff, byte(http2.FrameData), 0, 0, 0, 0, 1}, // over the frame size we take
	}
}
