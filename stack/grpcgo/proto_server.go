package grpcgo

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/reflection"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/pb"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/stack/internal/grpcx"
)

// NewProtoServer returns a gRPC server of svc with the three wirebench.v1 services and
// server reflection. cfg.Options takes the options of grpcx.ServerOptionNames.
func NewProtoServer(svc contract.Service, cfg protocol.ServerConfig) (*grpcx.Server, error) {
	return grpcx.NewServer(grpcproto.Name, cfg, func(s *grpc.Server) {
		pb.RegisterPersonServiceServer(s, personServer{svc: svc})
		pb.RegisterEchoServiceServer(s, echoServer{svc: svc})
		pb.RegisterTradeServiceServer(s, tradeServer{svc: svc})
		protoMessages(s, cfg.Message)
		reflection.Register(s)
	})
}

// personServer serves PersonService from the service.
type personServer struct {
	pb.UnimplementedPersonServiceServer
	svc contract.Service
}

func (s personServer) ListPersons(ctx context.Context, _ *pb.ListPersonsRequest) (*pb.PersonList, error) {
	ps, err := s.svc.ListPersons(ctx)
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return grpcproto.ToPBPersons(ps), nil
}

func (s personServer) GetPerson(ctx context.Context, req *pb.PersonId) (*pb.Person, error) {
	p, err := s.svc.GetPerson(ctx, req.GetId())
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return grpcproto.ToPBPerson(&p), nil
}

func (s personServer) GetPersonLinks(ctx context.Context, req *pb.PersonId) (*pb.PersonLinkList, error) {
	links, err := s.svc.GetPersonLinks(ctx, req.GetId())
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return grpcproto.ToPBLinks(links), nil
}

func (s personServer) CreatePerson(ctx context.Context, req *pb.Person) (*pb.Person, error) {
	p, err := s.svc.CreatePerson(ctx, grpcproto.FromPBPerson(req))
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return grpcproto.ToPBPerson(&p), nil
}

// echoServer serves EchoService from the service.
type echoServer struct {
	pb.UnimplementedEchoServiceServer
	svc contract.Service
}

func (s echoServer) Echo(ctx context.Context, req *pb.EchoMessage) (*pb.EchoMessage, error) {
	out, err := s.svc.Echo(ctx, req.GetPayload())
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return &pb.EchoMessage{Payload: out}, nil
}

func (s echoServer) Stats(ctx context.Context, _ *pb.StatsRequest) (*pb.StatsReply, error) {
	st, err := s.svc.Stats(ctx)
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return &pb.StatsReply{Calls: st.Calls, LastPayloadLen: st.LastPayloadLen}, nil
}

func (s echoServer) Increment(ctx context.Context, req *pb.Number) (*pb.Number, error) {
	n, err := s.svc.Increment(ctx, req.GetValue())
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return &pb.Number{Value: n}, nil
}

// tradeServer serves TradeService from the service.
type tradeServer struct {
	pb.UnimplementedTradeServiceServer
	svc contract.Service
}

// StreamTrades sends each trade of the service as one message. grpc-go's flow control
// paces it: Send blocks while the client's window is full, and fails once the client
// cancelled, which ends the service's loop with that error.
func (s tradeServer) StreamTrades(req *pb.TradesRequest, stream grpc.ServerStreamingServer[pb.Trade]) error {
	err := s.svc.StreamTrades(stream.Context(), req.GetCount(), func(t *contract.Trade) error {
		// A fresh message per Send: grpc-go documents that a sent message must not be
		// modified, as stats handlers may read it later.
		w := new(pb.Trade)
		grpcproto.ToPBTrade(t, w)
		return stream.Send(w)
	})
	return grpcx.ServerError(err)
}

// StreamOriginalTrades is StreamTrades for the original's trade.
func (s tradeServer) StreamOriginalTrades(req *pb.TradesRequest, stream grpc.ServerStreamingServer[pb.OriginalTrade]) error {
	err := s.svc.StreamOriginalTrades(stream.Context(), req.GetCount(), func(t *contract.OriginalTrade) error {
		w := new(pb.OriginalTrade)
		grpcproto.ToPBOriginalTrade(t, w)
		return stream.Send(w)
	})
	return grpcx.ServerError(err)
}
