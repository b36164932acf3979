package spec

// LoadKeys are the keys of a load block and the bench flags of one value of each: a
// block's lists are crossed into load points (rates × concurrency × connections),
// where the flags give one point. The values are a load.Model's, checked by
// load.Model.Normalize wherever they come from; the table holds what the keys and
// flags share (Key), so that the suite reader's keys and the flags' help are written
// once. capacity has no flag: it is a command of its own, with the flags of
// CapacitySettings. They are in the order a suite's "valid:" list names them.
var LoadKeys = []Key{
	{Key: "concurrency", Flag: "concurrency", Short: 'c',
		Help: "Closed model: calls in flight. Open model: the cap on calls in flight."},
	{Key: "connections", Flag: "connections",
		Help: "Clients the calls are spread over (a gRPC or Cap'n Proto client is one connection; HTTP/1.1 opens one per call in flight)."},
	{Key: "rates", Flag: "rate", Short: 'r',
		Help: "Open model: arrivals per second (switches from the closed model)."},
	{Key: "arrival", Flag: "arrival",
		Help: "Open model (with a rate): arrival spacing, constant (the default) or poisson."},
	{Key: "capacity",
		Help: "A capacity search instead of one load (CapacitySettings; the capacity command)."},
}

// LoadKeyNames returns the keys of LoadKeys, in order.
func LoadKeyNames() []string { return KeyNames(LoadKeys) }
