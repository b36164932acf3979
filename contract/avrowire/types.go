package avrowire

// The wire structs, one per record, fields in the records' order. Nested records are
// values (Avro records are never null); only Picture is optional.

// PersonName is wirebench.v1.PersonName.
type PersonName struct {
	Title string `avro:"title"`
	First string `avro:"first"`
	Last  string `avro:"last"`
}

// Location is wirebench.v1.Location.
type Location struct {
	Street   string `avro:"street"`
	City     string `avro:"city"`
	State    string `avro:"state"`
	PostCode string `avro:"post_code"`
}

// Picture is wirebench.v1.Picture.
type Picture struct {
	Large     string `avro:"large"`
	Medium    string `avro:"medium"`
	Thumbnail string `avro:"thumbnail"`
}

// Person is wirebench.v1.Person; Picture is nil for the union's null branch.
type Person struct {
	ID       int64      `avro:"id"`
	Name     PersonName `avro:"name"`
	Gender   string     `avro:"gender"`
	Location Location   `avro:"location"`
	Email    string     `avro:"email"`
	Picture  *Picture   `avro:"picture"`
}

// PersonLink is wirebench.v1.PersonLink.
type PersonLink struct {
	P1 Person `avro:"p1"`
	P2 Person `avro:"p2"`
}

// PersonList is wirebench.v1.PersonList.
type PersonList struct {
	Persons []Person `avro:"persons"`
}

// PersonLinkList is wirebench.v1.PersonLinkList.
type PersonLinkList struct {
	Links []PersonLink `avro:"links"`
}

// ListPersonsRequest is wirebench.v1.ListPersonsRequest (no fields: zero bytes).
type ListPersonsRequest struct{}

// PersonID is wirebench.v1.PersonId.
type PersonID struct {
	ID int64 `avro:"id"`
}

// EchoMessage is wirebench.v1.EchoMessage.
type EchoMessage struct {
	Payload string `avro:"payload"`
}

// StatsRequest is wirebench.v1.StatsRequest (no fields: zero bytes).
type StatsRequest struct{}

// StatsReply is wirebench.v1.StatsReply.
type StatsReply struct {
	Calls          int64 `avro:"calls"`
	LastPayloadLen int64 `avro:"last_payload_len"`
}

// Number is wirebench.v1.Number.
type Number struct {
	Value int64 `avro:"value"`
}

// Side is the enum wirebench.v1.Side, by symbol index.
type Side int32

const (
	SideBuy  Side = 0
	SideSell Side = 1
)

// Trade is wirebench.v1.Trade.
type Trade struct {
	ID             int64   `avro:"id"`
	Symbol         string  `avro:"symbol"`
	Price          float64 `avro:"price"`
	Quantity       int64   `avro:"quantity"`
	TimestampNanos int64   `avro:"timestamp_nanos"`
	Side           Side    `avro:"side"`
}

// TradesRequest is wirebench.v1.TradesRequest.
type TradesRequest struct {
	Count int64 `avro:"count"`
}

// OriginalTrade is wirebench.v1.OriginalTrade, the REST vs gRPC original's trade.
type OriginalTrade struct {
	ID         string `avro:"id"`
	ExternalID string `avro:"external_id"`
	Info       string `avro:"info"`
	Str1       string `avro:"str1"`
	Str2       string `avro:"str2"`
	Str3       string `avro:"str3"`
	Str4       string `avro:"str4"`
	Str5       string `avro:"str5"`
	Str6       string `avro:"str6"`
	Str7       string `avro:"str7"`
	Str8       string `avro:"str8"`
	Str9       string `avro:"str9"`
	Str10      string `avro:"str10"`
	Long1      int64  `avro:"long1"`
	Long2      int64  `avro:"long2"`
	Long3      int64  `avro:"long3"`
	Long4      int64  `avro:"long4"`
	Long5      int64  `avro:"long5"`
	Long6      int64  `avro:"long6"`
	Long7      int64  `avro:"long7"`
	Long8      int64  `avro:"long8"`
	Long9      int64  `avro:"long9"`
	Long10     int64  `avro:"long10"`
}

// The schemas of the structs, by record.
var (
	personNameType         = types["PersonName"]
	locationType           = types["Location"]
	pictureType            = types["Picture"]
	personType             = types["Person"]
	personLinkType         = types["PersonLink"]
	personListType         = types["PersonList"]
	personLinkListType     = types["PersonLinkList"]
	listPersonsRequestType = types["ListPersonsRequest"]
	personIDType           = types["PersonId"]
	echoMessageType        = types["EchoMessage"]
	statsRequestType       = types["StatsRequest"]
	statsReplyType         = types["StatsReply"]
	numberType             = types["Number"]
	tradeType              = types["Trade"]
	tradesRequestType      = types["TradesRequest"]
	originalTradeType      = types["OriginalTrade"]
)

func (*PersonName) AvroType() *Type         { return personNameType }
func (*Location) AvroType() *Type           { return locationType }
func (*Picture) AvroType() *Type            { return pictureType }
func (*Person) AvroType() *Type             { return personType }
func (*PersonLink) AvroType() *Type         { return personLinkType }
func (*PersonList) AvroType() *Type         { return personListType }
func (*PersonLinkList) AvroType() *Type     { return personLinkListType }
func (*ListPersonsRequest) AvroType() *Type { return listPersonsRequestType }
func (*PersonID) AvroType() *Type           { return personIDType }
func (*EchoMessage) AvroType() *Type        { return echoMessageType }
func (*StatsRequest) AvroType() *Type       { return statsRequestType }
func (*StatsReply) AvroType() *Type         { return statsReplyType }
func (*Number) AvroType() *Type             { return numberType }
func (*Trade) AvroType() *Type              { return tradeType }
func (*TradesRequest) AvroType() *Type      { return tradesRequestType }
func (*OriginalTrade) AvroType() *Type      { return originalTradeType }
