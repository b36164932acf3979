//! The benchmark contract (contract/ in the Go module): the model, the seeded data set
//! (byte for byte the Go one, checked against contract/testdata), the reference service
//! every server stack serves, and the errors a service refuses calls with.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use serde::{Deserialize, Serialize};

/// The default data set (contract.DefaultSeed, DefaultSize).
pub const DEFAULT_SEED: u64 = 1;
pub const DEFAULT_SIZE: i32 = 20;
/// Links each person is the first member of (fewer in a smaller data set).
pub const LINKS_PER_PERSON: usize = 3;
/// StreamTrades refuses counts above this.
pub const MAX_TRADES: i64 = 10_000_000;
/// Workload parameter limits (contract.MaxPayload, MaxIncrements).
pub const MAX_PAYLOAD: i64 = 64 << 20;
pub const MAX_INCREMENTS: i64 = 1_000_000;
/// The default limit on one message, on servers and clients alike (16 MiB).
pub const DEFAULT_MAX_MESSAGE_SIZE: i64 = 16 << 20;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PersonName {
    pub title: String,
    pub first: String,
    pub last: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Location {
    pub street: String,
    pub city: String,
    pub state: String,
    pub post_code: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Picture {
    pub large: String,
    pub medium: String,
    pub thumbnail: String,
}

/// A person; `picture` is None for one person in four, and every protocol must carry
/// that absence (http-json leaves the field out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Person {
    pub id: i64,
    pub name: PersonName,
    pub gender: String,
    pub location: Location,
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<Picture>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonLink {
    pub p1: Person,
    pub p2: Person,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    #[serde(rename = "BUY")]
    Buy,
    #[serde(rename = "SELL")]
    Sell,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trade {
    pub id: i64,
    pub symbol: String,
    pub price: f64,
    pub quantity: i64,
    pub timestamp_nanos: i64,
    pub side: Side,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub calls: i64,
    pub last_payload_len: i64,
}

/// The contract's error codes, as they travel (contract/errors.go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    NotFound,
    InvalidArgument,
    ResourceExhausted,
    Internal,
}

impl Code {
    pub fn wire(self) -> &'static str {
        match self {
            Code::NotFound => "not_found",
            Code::InvalidArgument => "invalid_argument",
            Code::ResourceExhausted => "resource_exhausted",
            Code::Internal => "internal",
        }
    }

    pub fn from_wire(s: &str) -> Option<Code> {
        match s {
            "not_found" => Some(Code::NotFound),
            "invalid_argument" => Some(Code::InvalidArgument),
            "resource_exhausted" => Some(Code::ResourceExhausted),
            "internal" => Some(Code::Internal),
            _ => None,
        }
    }
}

/// Why a call failed, as a workload sees it whatever the protocol: a refusal with a
/// contract code, an answer that differs from the contract's, or a failure in transit
/// already classified into one of record/errors.go's kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    Contract(Code, String),
    WrongAnswer(String),
    /// kind is "timeout", "canceled", "refused", "reset" or "other".
    Transport(&'static str, String),
}

impl Error {
    pub fn contract(code: Code, msg: impl Into<String>) -> Error {
        Error::Contract(code, msg.into())
    }
    pub fn wrong(msg: impl Into<String>) -> Error {
        Error::WrongAnswer(msg.into())
    }
    /// The error kind recorded for a failed call (record/errors.go).
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Contract(c, _) => c.wire(),
            Error::WrongAnswer(_) => "wrong_answer",
            Error::Transport(k, _) => k,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Contract(c, m) => write!(f, "{}: {}", c.wire(), m),
            Error::WrongAnswer(m) => write!(f, "wrong answer: {m}"),
            Error::Transport(k, m) => write!(f, "{k}: {m}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// Go's math/rand/v2 PCG (128-bit LCG, DXSM output) and the parts of rand.Rand the data
/// set draws with, bit for bit, so a data set built here equals the Go one. Owned by one
/// thread.
pub struct Pcg {
    state: u128,
}

impl Pcg {
    const MUL: u128 = (2549297995355413924u128 << 64) | 4865540595714422341u128;
    const INC: u128 = (6364136223846793005u128 << 64) | 1442695040888963407u128;
    const CHEAP_MUL: u64 = 0xda942042e4dd58b5;

    /// The state of rand.NewPCG(seed1, seed2).
    pub fn new(seed1: u64, seed2: u64) -> Pcg {
        Pcg { state: ((seed1 as u128) << 64) | seed2 as u128 }
    }

    /// Go's PCG.Uint64.
    pub fn uint64(&mut self) -> u64 {
        self.state = self.state.wrapping_mul(Self::MUL).wrapping_add(Self::INC);
        let mut hi = (self.state >> 64) as u64;
        let lo = self.state as u64;
        hi ^= hi >> 32;
        hi = hi.wrapping_mul(Self::CHEAP_MUL);
        hi ^= hi >> 48;
        hi.wrapping_mul(lo | 1)
    }

    /// Go's rand.Rand.IntN for n > 0 on a 64-bit machine (uint64n, Lemire's method).
    pub fn int_n(&mut self, n: u64) -> u64 {
        assert!(n > 0, "int_n of {n}");
        if n & (n - 1) == 0 {
            return self.uint64() & (n - 1);
        }
        let mut prod = (self.uint64() as u128) * (n as u128);
        if (prod as u64) < n {
            let thresh = n.wrapping_neg() % n;
            while (prod as u64) < thresh {
                prod = (self.uint64() as u128) * (n as u128);
            }
        }
        (prod >> 64) as u64
    }

    /// Go's Float64: 53 random bits as a fraction of 2⁵³.
    pub fn float64(&mut self) -> f64 {
        ((self.uint64() << 11 >> 11) as f64) / (1u64 << 53) as f64
    }
}

const TITLES: [&str; 5] = ["mr", "ms", "mrs", "miss", "dr"];
const FIRST_NAMES: [&str; 16] = [
    "Amelia", "Bruno", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi", "Ingrid", "Jonas", "Kofi",
    "Lucía", "Mateo", "Nadia", "Oskar", "Priya",
];
const LAST_NAMES: [&str; 15] = [
    "Almeida", "Berg", "Castro", "Dubois", "Eriksen", "Fischer", "García", "Hansen", "Ivanova", "Jensen",
    "Kowalski", "Laurent", "Moreau", "Nakamura", "Olsen",
];
const STREETS: [&str; 8] = [
    "Maple Street", "High Street", "Station Road", "Church Lane", "Mill Road", "Park Avenue", "Victoria Road",
    "Green Lane",
];
const CITIES: [&str; 10] = [
    "Aberdeen", "Bergen", "Coimbra", "Dresden", "Eindhoven", "Florence", "Gdańsk", "Helsinki", "Innsbruck", "Lyon",
];
const STATES: [&str; 10] = [
    "Aberdeenshire", "Vestland", "Centro", "Saxony", "North Brabant", "Tuscany", "Pomerania", "Uusimaa", "Tyrol",
    "Rhône",
];
/// The second seed word of the data set's PCG (Go: rand.NewPCG(seed, 0x9e3779b97f4a7c15)).
const DATASET_SEED2: u64 = 0x9e3779b97f4a7c15;

/// The deterministic person store of contract/dataset.go. Immutable.
#[derive(Debug)]
pub struct Dataset {
    persons: Vec<Person>,
    links: Vec<Vec<PersonLink>>,
}

impl Dataset {
    /// Builds the data set of size persons (ids 1..=size) from seed.
    pub fn new(seed: u64, size: i32) -> std::result::Result<Dataset, String> {
        if !(1..=1_000_000).contains(&size) {
            return Err(format!("data set size {size} out of range [1, 1000000]"));
        }
        let size = size as usize;
        let mut r = Pcg::new(seed, DATASET_SEED2);
        let persons: Vec<Person> = (0..size).map(|i| new_person(&mut r, i as i64 + 1)).collect();
        let links = (0..size)
            .map(|i| {
                (1..=LINKS_PER_PERSON)
                    .take_while(|&k| k < size)
                    .map(|k| PersonLink { p1: persons[i].clone(), p2: persons[(i + k) % size].clone() })
                    .collect()
            })
            .collect();
        Ok(Dataset { persons, links })
    }

    pub fn size(&self) -> usize {
        self.persons.len()
    }

    pub fn persons(&self) -> &[Person] {
        &self.persons
    }

    pub fn person(&self, id: i64) -> Option<&Person> {
        if id < 1 || id as usize > self.persons.len() { None } else { Some(&self.persons[id as usize - 1]) }
    }

    pub fn links(&self, id: i64) -> Option<&[PersonLink]> {
        if id < 1 || id as usize > self.links.len() { None } else { Some(&self.links[id as usize - 1]) }
    }
}

fn pick<'a>(r: &mut Pcg, s: &[&'a str]) -> &'a str {
    s[r.int_n(s.len() as u64) as usize]
}

// The draws happen in exactly the order of contract.newPerson: gender, first, last, city,
// title, street number, street, post code, then the picture number.
fn new_person(r: &mut Pcg, id: i64) -> Person {
    let (gender, folder) = if r.int_n(2) == 0 { ("male", "men") } else { ("female", "women") };
    let first = pick(r, &FIRST_NAMES);
    let last = pick(r, &LAST_NAMES);
    let city = r.int_n(CITIES.len() as u64) as usize;
    let title = pick(r, &TITLES);
    let number = 1 + r.int_n(9999);
    let street = format!("{number} {}", pick(r, &STREETS));
    let post_code = format!("{:05}", r.int_n(100000));
    let email = format!("{first}.{last}.{id}@example.com").to_lowercase();
    // One person in four has no picture, so every protocol must carry "absent".
    let picture = (id % 4 != 0).then(|| {
        let n = r.int_n(100);
        Picture {
            large: format!("https://randomuser.me/api/portraits/{folder}/{n}.jpg"),
            medium: format!("https://randomuser.me/api/portraits/med/{folder}/{n}.jpg"),
            thumbnail: format!("https://randomuser.me/api/portraits/thumb/{folder}/{n}.jpg"),
        }
    });
    Person {
        id,
        name: PersonName { title: title.into(), first: first.into(), last: last.into() },
        gender: gender.into(),
        location: Location {
            street,
            city: CITIES[city].into(),
            state: STATES[city].into(),
            post_code,
        },
        email,
        picture,
    }
}

const SYMBOLS: [&str; 8] = ["AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "ASML", "SAP", "TSM"];
/// 2026-01-01T00:00:00Z in Unix nanoseconds.
const TRADE_EPOCH: i64 = 1_767_225_600_000_000_000;

/// Trade i of a StreamTrades stream: every field depends on i only, so a client checks
/// each trade without the server's help.
pub fn trade_at(i: i64) -> Trade {
    Trade {
        id: i,
        symbol: SYMBOLS[(i % SYMBOLS.len() as i64) as usize].into(),
        price: (10000 + i % 90000) as f64 / 100.0,
        quantity: 1 + i % 500,
        timestamp_nanos: TRADE_EPOCH + i * 1_000_000,
        side: if i % 2 == 1 { Side::Sell } else { Side::Buy },
    }
}

/// A deterministic payload of size bytes: "Hello World " repeated and cut to size.
pub fn payload(size: usize) -> String {
    "Hello World ".repeat(size / 12 + 1)[..size].to_string()
}

/// The in-memory service every server stack serves (contract/reference.go): the same
/// answers and refusals as the Go reference. Safe for concurrent use.
#[derive(Debug)]
pub struct Reference {
    data: Arc<Dataset>,
    next_id: AtomicI64,
    calls: AtomicI64,
    last_len: AtomicI64,
}

impl Reference {
    pub fn new(data: Arc<Dataset>) -> Reference {
        let n = data.size() as i64;
        Reference { data, next_id: AtomicI64::new(n), calls: AtomicI64::new(0), last_len: AtomicI64::new(0) }
    }

    pub fn list_persons(&self) -> &[Person] {
        self.data.persons()
    }

    pub fn get_person(&self, id: i64) -> Result<&Person> {
        self.data.person(id).ok_or_else(|| Error::contract(Code::NotFound, format!("no person with id {id}")))
    }

    pub fn get_person_links(&self, id: i64) -> Result<&[PersonLink]> {
        self.data.links(id).ok_or_else(|| Error::contract(Code::NotFound, format!("no person with id {id}")))
    }

    /// Validates p and returns it with a fresh id above the data set's ids.
    pub fn create_person(&self, mut p: Person) -> Result<Person> {
        validate_new_person(&p)?;
        p.id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        Ok(p)
    }

    /// Counts the call and the payload's length in UTF-8 bytes.
    pub fn echo(&self, payload: String) -> String {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.last_len.store(payload.len() as i64, Ordering::Relaxed);
        payload
    }

    pub fn stats(&self) -> Stats {
        Stats { calls: self.calls.load(Ordering::Relaxed), last_payload_len: self.last_len.load(Ordering::Relaxed) }
    }

    pub fn increment(&self, n: i64) -> i64 {
        n.wrapping_add(1)
    }

    /// The trades of a StreamTrades call, pulled one at a time; refuses a count outside
    /// [0, MAX_TRADES] before any trade.
    pub fn trades(&self, count: i64) -> Result<impl Iterator<Item = Trade> + Send + 'static> {
        if !(0..=MAX_TRADES).contains(&count) {
            return Err(Error::contract(
                Code::InvalidArgument,
                format!("trade count {count} out of range [0, {MAX_TRADES}]"),
            ));
        }
        Ok((0..count).map(trade_at))
    }
}

/// contract.ValidateNewPerson: a first and last name, an email with '@'.
pub fn validate_new_person(p: &Person) -> Result<()> {
    if p.name.first.is_empty() || p.name.last.is_empty() {
        return Err(Error::contract(Code::InvalidArgument, "person needs a first and a last name"));
    }
    if !p.email.contains('@') {
        return Err(Error::contract(Code::InvalidArgument, format!("person email {:?} has no '@'", p.email)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The Go module's golden files (contract/golden_test.go writes them).
    fn golden(name: &str) -> Value {
        let path = format!("{}/../../../contract/testdata/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn datasets_equal_the_go_ones() {
        for (seed, size) in [(1u64, 20i32), (42, 100), (7, 1), (u64::MAX, 5)] {
            let g = golden(&format!("dataset-{seed}-{size}.json"));
            let mut r = Pcg::new(seed, DATASET_SEED2);
            for (i, want) in g["pcg_uint64"].as_array().unwrap().iter().enumerate() {
                let want = u64::from_str_radix(want.as_str().unwrap(), 16).unwrap();
                assert_eq!(r.uint64(), want, "seed {seed}: uint64 {i}");
            }
            // One generator draws every case in turn, as the Go test's rand.Rand does.
            let mut r = Pcg::new(seed, DATASET_SEED2);
            for case in g["intn"].as_array().unwrap() {
                let n = case["n"].as_u64().unwrap();
                let got: Vec<u64> = case["values"].as_array().unwrap().iter().map(|_| r.int_n(n)).collect();
                let want: Vec<u64> = case["values"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
                assert_eq!(got, want, "seed {seed}: IntN({n})");
            }
            let ds = Dataset::new(seed, size).unwrap();
            let persons: Vec<Person> = serde_json::from_value(g["persons"].clone()).unwrap();
            assert_eq!(ds.persons(), &persons[..], "seed {seed} size {size}: persons");
            for (i, links) in g["links"].as_array().unwrap().iter().enumerate() {
                let got: Vec<(i64, i64)> = ds.links(i as i64 + 1).unwrap().iter().map(|l| (l.p1.id, l.p2.id)).collect();
                let want: Vec<(i64, i64)> = serde_json::from_value(links.clone()).unwrap();
                assert_eq!(got, want, "seed {seed}: links of {}", i + 1);
            }
        }
    }

    #[test]
    fn trades_equal_the_go_ones() {
        let g = golden("trades.json");
        // The golden trades are a sample of ids (the first ones, and some far out).
        for t in g["trades"].as_array().unwrap() {
            let i = t["id"].as_i64().unwrap();
            let got = trade_at(i);
            assert_eq!(got.symbol, t["symbol"].as_str().unwrap());
            assert_eq!(got.price, t["price"].as_f64().unwrap(), "trade {i} price");
            assert_eq!(got.quantity, t["quantity"].as_i64().unwrap());
            assert_eq!(got.timestamp_nanos, t["timestamp_nanos"].as_i64().unwrap());
            assert_eq!(got.side == Side::Sell, t["side"].as_i64().unwrap() == 1);
        }
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        assert!(Dataset::new(1, 0).is_err());
        assert!(Dataset::new(1, 1_000_001).is_err());
    }

    #[test]
    fn payloads_repeat_hello_world() {
        assert_eq!(payload(0), "");
        assert_eq!(payload(5), "Hello");
        assert_eq!(payload(14), "Hello World He");
    }

    #[test]
    fn the_reference_refuses_as_the_go_one() {
        let r = Reference::new(Arc::new(Dataset::new(1, 20).unwrap()));
        assert!(matches!(r.get_person(21), Err(Error::Contract(Code::NotFound, _))));
        assert!(matches!(r.trades(-1), Err(Error::Contract(Code::InvalidArgument, _))));
        let mut p = r.get_person(1).unwrap().clone();
        assert_eq!(r.create_person(p.clone()).unwrap().id, 21); // above the data set's ids
        p.email = "x".into();
        assert!(matches!(r.create_person(p), Err(Error::Contract(Code::InvalidArgument, _))));
        r.echo("héllo".into());
        assert_eq!(r.stats(), Stats { calls: 1, last_payload_len: 6 }); // UTF-8 bytes
    }
}
