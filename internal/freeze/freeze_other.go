//go:build !linux

package freeze

func open(string) (Freezer, error) { return nil, ErrUnavailable }
