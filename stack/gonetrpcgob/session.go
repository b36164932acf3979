package gonetrpcgob

import (
	"context"
	"sync"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/netrpcgob"
)

// Session is the receiver a connection's rpc.Server calls: its exported methods are
// the service's, in net/rpc's form (rpc.Register logs every exported method that is
// not, so the helpers are unexported). Its calls run with the connection's context,
// which ends when the connection or the server does; net/rpc carries no cancellation
// of one call. net/rpc calls the methods from a goroutine per call.
type Session struct {
	srv *Server
	ctx context.Context
	svc contract.Service

	mu      sync.Mutex
	streams map[uint64]*tradeStream
	next    uint64 // the id of the next stream
}

func newSession(srv *Server, ctx context.Context) *Session {
	return &Session{srv: srv, ctx: ctx, svc: srv.svc, streams: map[uint64]*tradeStream{}}
}

// begin counts a call in flight, for Shutdown; the call ends it.
func (s *Session) begin() func() {
	s.srv.active.Add(1)
	return func() { s.srv.active.Add(-1) }
}

func (s *Session) ListPersons(_ netrpcgob.Empty, reply *netrpcgob.Persons) error {
	defer s.begin()()
	ps, err := s.svc.ListPersons(s.ctx)
	reply.Persons = ps
	return protocol.ErrorReason(err)
}

func (s *Session) GetPerson(id int64, reply *contract.Person) error {
	defer s.begin()()
	p, err := s.svc.GetPerson(s.ctx, id)
	*reply = p
	return protocol.ErrorReason(err)
}

func (s *Session) GetPersonLinks(id int64, reply *netrpcgob.Links) error {
	defer s.begin()()
	ls, err := s.svc.GetPersonLinks(s.ctx, id)
	reply.Links = ls
	return protocol.ErrorReason(err)
}

func (s *Session) CreatePerson(p contract.Person, reply *contract.Person) error {
	defer s.begin()()
	created, err := s.svc.CreatePerson(s.ctx, p)
	*reply = created
	return protocol.ErrorReason(err)
}

func (s *Session) Echo(payload string, reply *string) error {
	defer s.begin()()
	out, err := s.svc.Echo(s.ctx, payload)
	*reply = out
	return protocol.ErrorReason(err)
}

func (s *Session) Stats(_ netrpcgob.Empty, reply *contract.Stats) error {
	defer s.begin()()
	st, err := s.svc.Stats(s.ctx)
	*reply = st
	return protocol.ErrorReason(err)
}

func (s *Session) Increment(n int64, reply *int64) error {
	defer s.begin()()
	out, err := s.svc.Increment(s.ctx, n)
	*reply = out
	return protocol.ErrorReason(err)
}

// StreamTrades starts a stream of the connection and answers its first page. A
// refused count is the service's refusal, from this call.
func (s *Session) StreamTrades(args netrpcgob.StreamArgs, reply *netrpcgob.TradePage) error {
	defer s.begin()()
	size := netrpcgob.PageTrades(args.PageSize, args.Count, s.srv.limit)
	st := startStream(s.ctx, s.svc, args.Count, size, &s.srv.wg)
	s.mu.Lock()
	s.next++
	id := s.next
	s.streams[id] = st
	s.mu.Unlock()
	return s.page(id, st, reply)
}

// NextTrades answers the next page of a stream of the connection.
func (s *Session) NextTrades(id uint64, reply *netrpcgob.TradePage) error {
	defer s.begin()()
	s.mu.Lock()
	st := s.streams[id]
	s.mu.Unlock()
	if st == nil {
		return protocol.ErrorReason(contract.Errorf(contract.InvalidArgument, "no trade stream %d on this connection", id))
	}
	return s.page(id, st, reply)
}

// CancelTrades ends a stream of the connection before its last page; a stream that
// already ended is no error.
func (s *Session) CancelTrades(id uint64, _ *netrpcgob.Empty) error {
	s.end(id)
	return nil
}

// page waits for the stream's next page and answers it; the last page, or the
// service's failure, ends the stream.
func (s *Session) page(id uint64, st *tradeStream, reply *netrpcgob.TradePage) error {
	var p streamPage
	select {
	case p = <-st.pages:
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
	if p.err != nil || p.last {
		s.end(id)
	}
	if p.err != nil {
		return protocol.ErrorReason(p.err)
	}
	*reply = netrpcgob.TradePage{Stream: id, Trades: p.trades, Last: p.last}
	return nil
}

func (s *Session) end(id uint64) {
	s.mu.Lock()
	st := s.streams[id]
	delete(s.streams, id)
	s.mu.Unlock()
	if st != nil {
		st.cancel()
	}
}

// tradeStream is a stream of a connection: a producer goroutine runs the service's
// StreamTrades and hands over full pages, one ahead of the client's calls, so at most
// three pages are alive: the one being written, the one waiting, the one being filled.
type tradeStream struct {
	pages  chan streamPage // capacity 1
	cancel context.CancelFunc
}

// streamPage is a page, or the service's failure, which ends the stream.
type streamPage struct {
	trades []contract.Trade
	last   bool
	err    error
}

// startStream starts the producer of a stream of count trades in pages of size; it
// runs until the stream is done or ctx (the connection's) or the stream is cancelled.
func startStream(ctx context.Context, svc contract.Service, count int64, size int, wg *sync.WaitGroup) *tradeStream {
	ctx, cancel := context.WithCancel(ctx)
	st := &tradeStream{pages: make(chan streamPage, 1), cancel: cancel}
	wg.Go(func() {
		defer cancel()
		send := func(p streamPage) bool {
			select {
			case st.pages <- p:
				return true
			case <-ctx.Done():
				return false
			}
		}
		page := make([]contract.Trade, 0, size)
		err := svc.StreamTrades(ctx, count, func(t *contract.Trade) error {
			// A full page is sent once the next trade exists, so that the last page is
			// never an empty one after a full one.
			if len(page) == size {
				if !send(streamPage{trades: page}) {
					return ctx.Err()
				}
				page = make([]contract.Trade, 0, size)
			}
			page = append(page, *t)
			return nil
		})
		if err != nil {
			send(streamPage{err: err})
			return
		}
		send(streamPage{trades: page, last: true})
	})
	return st
}

// stop ends every stream of the connection, when it closes.
func (s *Session) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, st := range s.streams {
		st.cancel()
		delete(s.streams, id)
	}
}
