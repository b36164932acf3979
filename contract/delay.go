package contract

import (
	"context"
	"time"
)

// Delayed returns svc with every call made to wait d before it runs: a service
// that is slower by a known, fixed amount, for checking that a slowdown shows in
// the results (the http-json servers' "delay" option uses it, and the end-to-end
// test of `wirebench gate` injects its slowdown with it). The wait ends early,
// with the context's error, when ctx is done. Safe for concurrent use when svc is.
func Delayed(svc Service, d time.Duration) Service {
	if d <= 0 {
		return svc
	}
	return &delayed{svc: svc, d: d}
}

type delayed struct {
	svc Service
	d   time.Duration
}

var _ Service = (*delayed)(nil)

func (s *delayed) wait(ctx context.Context) error {
	t := time.NewTimer(s.d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *delayed) ListPersons(ctx context.Context) ([]Person, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.svc.ListPersons(ctx)
}

func (s *delayed) GetPerson(ctx context.Context, id int64) (Person, error) {
	if err := s.wait(ctx); err != nil {
		return Person{}, err
	}
	return s.svc.GetPerson(ctx, id)
}

func (s *delayed) GetPersonLinks(ctx context.Context, id int64) ([]PersonLink, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.svc.GetPersonLinks(ctx, id)
}

func (s *delayed) CreatePerson(ctx context.Context, p Person) (Person, error) {
	if err := s.wait(ctx); err != nil {
		return Person{}, err
	}
	return s.svc.CreatePerson(ctx, p)
}

func (s *delayed) Echo(ctx context.Context, payload string) (string, error) {
	if err := s.wait(ctx); err != nil {
		return "", err
	}
	return s.svc.Echo(ctx, payload)
}

func (s *delayed) Stats(ctx context.Context) (Stats, error) {
	if err := s.wait(ctx); err != nil {
		return Stats{}, err
	}
	return s.svc.Stats(ctx)
}

func (s *delayed) Increment(ctx context.Context, n int64) (int64, error) {
	if err := s.wait(ctx); err != nil {
		return 0, err
	}
	return s.svc.Increment(ctx, n)
}

func (s *delayed) StreamTrades(ctx context.Context, count int64, yield func(*Trade) error) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.svc.StreamTrades(ctx, count, yield)
}

func (s *delayed) StreamOriginalTrades(ctx context.Context, count int64, yield func(*OriginalTrade) error) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.svc.StreamOriginalTrades(ctx, count, yield)
}
