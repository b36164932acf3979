package cluster

import (
	"context"
	"sync/atomic"

	"github.com/wirebench/wirebench/contract"
)

// countingService counts the calls a server answers, for the server's mark.
type countingService struct {
	contract.Service
	calls atomic.Int64
}

var _ contract.Service = (*countingService)(nil)

func (s *countingService) ListPersons(ctx context.Context) ([]contract.Person, error) {
	s.calls.Add(1)
	return s.Service.ListPersons(ctx)
}

func (s *countingService) GetPerson(ctx context.Context, id int64) (contract.Person, error) {
	s.calls.Add(1)
	return s.Service.GetPerson(ctx, id)
}

func (s *countingService) GetPersonLinks(ctx context.Context, id int64) ([]contract.PersonLink, error) {
	s.calls.Add(1)
	return s.Service.GetPersonLinks(ctx, id)
}

func (s *countingService) CreatePerson(ctx context.Context, p contract.Person) (contract.Person, error) {
	s.calls.Add(1)
	return s.Service.CreatePerson(ctx, p)
}

func (s *countingService) Echo(ctx context.Context, payload string) (string, error) {
	s.calls.Add(1)
	return s.Service.Echo(ctx, payload)
}

func (s *countingService) Stats(ctx context.Context) (contract.Stats, error) {
	s.calls.Add(1)
	return s.Service.Stats(ctx)
}

func (s *countingService) Increment(ctx context.Context, n int64) (int64, error) {
	s.calls.Add(1)
	return s.Service.Increment(ctx, n)
}

func (s *countingService) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	s.calls.Add(1)
	return s.Service.StreamTrades(ctx, count, yield)
}
