// Package contract defines the benchmark service that every wirebench protocol carries:
// the model types, the Service interface, a reference in-memory implementation, a
// deterministic data set and the workloads that drive a Service.
//
// Protocol adapters convert between these model types and their own wire types, as a
// real application with a domain model does; that conversion is part of what is measured.
package contract

// PersonName is the name of a Person.
type PersonName struct {
	Title string `json:"title"`
	First string `json:"first"`
	Last  string `json:"last"`
}

// Location is the postal address of a Person.
type Location struct {
	Street   string `json:"street"`
	City     string `json:"city"`
	State    string `json:"state"`
	PostCode string `json:"post_code"`
}

// Picture holds the URLs of a Person's pictures.
type Picture struct {
	Large     string `json:"large"`
	Medium    string `json:"medium"`
	Thumbnail string `json:"thumbnail"`
}

// Person is the record of the person store. Picture is optional: nil means absent,
// and every protocol must carry that distinction.
type Person struct {
	ID       int64      `json:"id"`
	Name     PersonName `json:"name"`
	Gender   string     `json:"gender"`
	Location Location   `json:"location"`
	Email    string     `json:"email"`
	Picture  *Picture   `json:"picture,omitempty"`
}

// PersonLink relates two persons.
type PersonLink struct {
	P1 Person `json:"p1"`
	P2 Person `json:"p2"`
}

// Side is the side of a Trade.
type Side int32

const (
	Buy  Side = 0
	Sell Side = 1
)

// String returns "BUY" or "SELL".
func (s Side) String() string {
	if s == Sell {
		return "SELL"
	}
	return "BUY"
}

// Trade is one element of the StreamTrades server stream.
type Trade struct {
	ID             int64   `json:"id"`
	Symbol         string  `json:"symbol"`
	Price          float64 `json:"price"`
	Quantity       int64   `json:"quantity"`
	TimestampNanos int64   `json:"timestamp_nanos"`
	Side           Side    `json:"side"`
}

// Stats is the answer of the Stats operation.
type Stats struct {
	// Calls is the number of Echo calls the service has answered.
	Calls int64 `json:"calls"`
	// LastPayloadLen is the length in bytes of the payload of the latest Echo call.
	LastPayloadLen int64 `json:"last_payload_len"`
}

// Equal reports whether two persons carry the same values, Picture compared by value.
func (p Person) Equal(q Person) bool {
	if p.ID != q.ID || p.Name != q.Name || p.Gender != q.Gender || p.Location != q.Location ||
		p.Email != q.Email {
		return false
	}
	if (p.Picture == nil) != (q.Picture == nil) {
		return false
	}
	return p.Picture == nil || *p.Picture == *q.Picture
}

// OriginalTrade is the Trade of the REST vs gRPC original (com.benchmark.domain.Trade in
// github.com/AlexeyPirogov/RestVsGrpc, and its ProtoTrade message): 13 strings and 10
// longs under the original's names. StreamOriginalTrades streams it; OriginalTradeAt
// says what each field holds.
type OriginalTrade struct {
	ID         string `json:"id"`
	ExternalID string `json:"externalId"`
	Info       string `json:"info"`
	Str1       string `json:"str1"`
	Str2       string `json:"str2"`
	Str3       string `json:"str3"`
	Str4       string `json:"str4"`
	Str5       string `json:"str5"`
	Str6       string `json:"str6"`
	Str7       string `json:"str7"`
	Str8       string `json:"str8"`
	Str9       string `json:"str9"`
	Str10      string `json:"str10"`
	Long1      int64  `json:"long1"`
	Long2      int64  `json:"long2"`
	Long3      int64  `json:"long3"`
	Long4      int64  `json:"long4"`
	Long5      int64  `json:"long5"`
	Long6      int64  `json:"long6"`
	Long7      int64  `json:"long7"`
	Long8      int64  `json:"long8"`
	Long9      int64  `json:"long9"`
	Long10     int64  `json:"long10"`
}
