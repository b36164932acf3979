package grpcgo

import (
	"context"

	"google.golang.org/grpc"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/avrowire"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/stack/internal/grpcx"
)

// NewAvroServer returns a gRPC server of svc with the three wirebench.v1 services in
// Avro. cfg.Options takes the options of grpcx.ServerOptionNames.
//
// The server speaks only Avro, so it reads every request as Avro and answers in Avro
// whatever content-subtype the request names (grpc.ForceServerCodecV2): gRPC
// libraries that always send "application/grpc", such as Python's grpcio, call it
// with raw-bytes serializers. That is also why it registers no server reflection or
// health service: theirs are protobuf messages, which the forced codec refuses (it
// takes avrowire types only), and reflection would describe protobuf descriptors these
// services do not have.
func NewAvroServer(svc contract.Service, cfg protocol.ServerConfig) (*grpcx.Server, error) {
	s := &avroServer{svc: svc}
	ms, err := avroSchema(cfg.Message)
	if err != nil {
		return nil, err
	}
	return grpcx.NewServer(grpcavro.Name, cfg, func(gs *grpc.Server) {
		avroMessages(gs, ms)
		gs.RegisterService(&personServiceDesc, s)
		gs.RegisterService(&echoServiceDesc, s)
		gs.RegisterService(&tradeServiceDesc, s)
	}, grpc.ForceServerCodecV2(grpcavro.Codec{}))
}

// avroServer serves the three services from the service.
type avroServer struct {
	svc contract.Service
}

func (s *avroServer) listPersons(ctx context.Context, _ *avrowire.ListPersonsRequest) (*avrowire.PersonList, error) {
	ps, err := s.svc.ListPersons(ctx)
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return grpcavro.ToWirePersons(ps), nil
}

func (s *avroServer) getPerson(ctx context.Context, req *avrowire.PersonID) (*avrowire.Person, error) {
	p, err := s.svc.GetPerson(ctx, req.ID)
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	out := new(avrowire.Person)
	grpcavro.ToWirePerson(&p, out)
	return out, nil
}

func (s *avroServer) getPersonLinks(ctx context.Context, req *avrowire.PersonID) (*avrowire.PersonLinkList, error) {
	links, err := s.svc.GetPersonLinks(ctx, req.ID)
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return grpcavro.ToWireLinks(links), nil
}

func (s *avroServer) createPerson(ctx context.Context, req *avrowire.Person) (*avrowire.Person, error) {
	var p contract.Person
	grpcavro.FromWirePerson(req, &p)
	p, err := s.svc.CreatePerson(ctx, p)
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	out := new(avrowire.Person)
	grpcavro.ToWirePerson(&p, out)
	return out, nil
}

func (s *avroServer) echo(ctx context.Context, req *avrowire.EchoMessage) (*avrowire.EchoMessage, error) {
	out, err := s.svc.Echo(ctx, req.Payload)
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return &avrowire.EchoMessage{Payload: out}, nil
}

func (s *avroServer) stats(ctx context.Context, _ *avrowire.StatsRequest) (*avrowire.StatsReply, error) {
	st, err := s.svc.Stats(ctx)
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return &avrowire.StatsReply{Calls: st.Calls, LastPayloadLen: st.LastPayloadLen}, nil
}

func (s *avroServer) increment(ctx context.Context, req *avrowire.Number) (*avrowire.Number, error) {
	n, err := s.svc.Increment(ctx, req.Value)
	if err != nil {
		return nil, grpcx.ServerError(err)
	}
	return &avrowire.Number{Value: n}, nil
}

// streamTrades sends each trade of the service as one message; grpc-go's flow
// control paces it, and Send fails once the client cancelled, which ends the
// service's loop with that error.
func (s *avroServer) streamTrades(req *avrowire.TradesRequest, stream grpc.ServerStream) error {
	err := s.svc.StreamTrades(stream.Context(), req.Count, func(t *contract.Trade) error {
		// A fresh message per Send: grpc-go documents that a sent message must not be
		// modified, as stats handlers may read it later.
		w := new(avrowire.Trade)
		grpcavro.ToWireTrade(t, w)
		return stream.SendMsg(w)
	})
	return grpcx.ServerError(err)
}

// streamOriginalTrades is streamTrades for the original's trade.
func (s *avroServer) streamOriginalTrades(req *avrowire.TradesRequest, stream grpc.ServerStream) error {
	err := s.svc.StreamOriginalTrades(stream.Context(), req.Count, func(t *contract.OriginalTrade) error {
		w := new(avrowire.OriginalTrade)
		grpcavro.ToWireOriginalTrade(t, w)
		return stream.SendMsg(w)
	})
	return grpcx.ServerError(err)
}
