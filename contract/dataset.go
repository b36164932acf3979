package contract

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Default data set parameters: every server and client of a run must use the same ones,
// since workloads verify answers against their own copy of the data set.
const (
	DefaultSeed = 1
	DefaultSize = 20
	// LinksPerPerson is how many links each person is the first member of (fewer when
	// the data set has fewer than LinksPerPerson+1 persons).
	LinksPerPerson = 3
)

// Dataset is the deterministic person store: the same seed and size give the same
// persons and links on every machine and in every language that follows this recipe.
// A Dataset is immutable after NewDataset and safe for concurrent use.
type Dataset struct {
	Seed    uint64
	persons []Person
	links   [][]PersonLink // links[i]: the links whose P1 is persons[i]
}

var (
	titles     = []string{"mr", "ms", "mrs", "miss", "dr"}
	firstNames = []string{"Amelia", "Bruno", "Chiara", "Dmitri", "Elif", "Farid", "Greta",
		"Hiroshi", "Ingrid", "Jonas", "Kofi", "Lucía", "Mateo", "Nadia", "Oskar", "Priya"}
	lastNames = []string{"Almeida", "Berg", "Castro", "Dubois", "Eriksen", "Fischer", "García",
		"Hansen", "Ivanova", "Jensen", "Kowalski", "Laurent", "Moreau", "Nakamura", "Olsen"}
	streets = []string{"Maple Street", "High Street", "Station Road", "Church Lane",
		"Mill Road", "Park Avenue", "Victoria Road", "Green Lane"}
	cities = []string{"Aberdeen", "Bergen", "Coimbra", "Dresden", "Eindhoven", "Florence",
		"Gdańsk", "Helsinki", "Innsbruck", "Lyon"}
	states = []string{"Aberdeenshire", "Vestland", "Centro", "Saxony", "North Brabant",
		"Tuscany", "Pomerania", "Uusimaa", "Tyrol", "Rhône"}
)

// NewDataset builds the data set of size persons with ids 1..size from seed.
func NewDataset(seed uint64, size int) (*Dataset, error) {
	if size < 1 || size > 1_000_000 {
		return nil, fmt.Errorf("data set size %d out of range [1, 1000000]", size)
	}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	d := &Dataset{Seed: seed, persons: make([]Person, size), links: make([][]PersonLink, size)}
	for i := range d.persons {
		d.persons[i] = newPerson(r, int64(i+1))
	}
	for i := range d.persons {
		for k := 1; k <= LinksPerPerson && k < size; k++ {
			d.links[i] = append(d.links[i], PersonLink{P1: d.persons[i], P2: d.persons[(i+k)%size]})
		}
	}
	return d, nil
}

// MustDataset is NewDataset for parameters known to be valid; it panics otherwise.
func MustDataset(seed uint64, size int) *Dataset {
	d, err := NewDataset(seed, size)
	if err != nil {
		panic(err)
	}
	return d
}

func newPerson(r *rand.Rand, id int64) Person {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	gender := "female"
	folder := "women"
	if r.IntN(2) == 0 {
		gender, folder = "male", "men"
	}
	first, last := pick(firstNames), pick(lastNames)
	city := r.IntN(len(cities))
	p := Person{
		ID:     id,
		Name:   PersonName{Title: pick(titles), First: first, Last: last},
		Gender: gender,
		Location: Location{
			Street:   fmt.Sprintf("%d %s", 1+r.IntN(9999), pick(streets)),
			City:     cities[city],
			State:    states[city],
			PostCode: fmt.Sprintf("%05d", r.IntN(100000)),
		},
		Email: strings.ToLower(fmt.Sprintf("%s.%s.%d@example.com", first, last, id)),
	}
	// One person in four has no picture, so every protocol must carry "absent".
	if id%4 != 0 {
		n := r.IntN(100)
		p.Picture = &Picture{
			Large:     fmt.Sprintf("https://randomuser.me/api/portraits/%s/%d.jpg", folder, n),
			Medium:    fmt.Sprintf("https://randomuser.me/api/portraits/med/%s/%d.jpg", folder, n),
			Thumbnail: fmt.Sprintf("https://randomuser.me/api/portraits/thumb/%s/%d.jpg", folder, n),
		}
	}
	return p
}

// Size returns the number of persons.
func (d *Dataset) Size() int { return len(d.persons) }

// Persons returns the persons in id order. The slice is shared: do not modify it.
func (d *Dataset) Persons() []Person { return d.persons }

// Person returns the person with the given id.
func (d *Dataset) Person(id int64) (Person, bool) {
	if id < 1 || id > int64(len(d.persons)) {
		return Person{}, false
	}
	return d.persons[id-1], true
}

// Links returns the links whose first member is the person with the given id. The
// slice is shared: do not modify it.
func (d *Dataset) Links(id int64) ([]PersonLink, bool) {
	if id < 1 || id > int64(len(d.persons)) {
		return nil, false
	}
	return d.links[id-1], true
}

var symbols = []string{"AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "ASML", "SAP", "TSM"}

// tradeEpoch is 2026-01-01T00:00:00Z in Unix nanoseconds.
const tradeEpoch = 1767225600_000_000_000

// TradeAt returns trade i of a StreamTrades stream. Every field depends on i only, so a
// client can verify each received trade without the server's help. Prices are whole
// cents below 1000, which every wire format carries exactly as a float64.
func TradeAt(i int64) Trade {
	side := Buy
	if i%2 == 1 {
		side = Sell
	}
	return Trade{
		ID:             i,
		Symbol:         symbols[i%int64(len(symbols))],
		Price:          float64(10000+i%90000) / 100,
		Quantity:       1 + i%500,
		TimestampNanos: tradeEpoch + i*1_000_000,
		Side:           side,
	}
}

// Payload returns a deterministic payload of size bytes: "Hello World" for size 11,
// that text repeated and cut to size otherwise.
func Payload(size int) string {
	const unit = "Hello World "
	if size <= 0 {
		return ""
	}
	return strings.Repeat(unit, size/len(unit)+1)[:size]
}
