package io.wirebench.contract;

import io.wirebench.contract.Model.Location;
import io.wirebench.contract.Model.Person;
import io.wirebench.contract.Model.PersonLink;
import io.wirebench.contract.Model.PersonName;
import io.wirebench.contract.Model.Picture;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The deterministic person store of contract/dataset.go: the same seed and size give
 * the same persons and links as the Go worker, byte for byte (checked against the Go
 * golden files in contract/testdata). Immutable and safe for concurrent use.
 */
public final class Dataset {
  private static final String[] TITLES = {"mr", "ms", "mrs", "miss", "dr"};
  private static final String[] FIRST_NAMES = {"Amelia", "Bruno", "Chiara", "Dmitri", "Elif", "Farid",
      "Greta", "Hiroshi", "Ingrid", "Jonas", "Kofi", "Lucía", "Mateo", "Nadia", "Oskar", "Priya"};
  private static final String[] LAST_NAMES = {"Almeida", "Berg", "Castro", "Dubois", "Eriksen", "Fischer",
      "García", "Hansen", "Ivanova", "Jensen", "Kowalski", "Laurent", "Moreau", "Nakamura", "Olsen"};
  private static final String[] STREETS = {"Maple Street", "High Street", "Station Road", "Church Lane",
      "Mill Road", "Park Avenue", "Victoria Road", "Green Lane"};
  private static final String[] CITIES = {"Aberdeen", "Bergen", "Coimbra", "Dresden", "Eindhoven",
      "Florence", "Gdańsk", "Helsinki", "Innsbruck", "Lyon"};
  private static final String[] STATES = {"Aberdeenshire", "Vestland", "Centro", "Saxony",
      "North Brabant", "Tuscany", "Pomerania", "Uusimaa", "Tyrol", "Rhône"};
  /** The second seed word of the data set's PCG (Go: rand.NewPCG(seed, 0x9e3779b97f4a7c15)). */
  static final long SEED2 = 0x9e3779b97f4a7c15L;

  private final long seed;
  private final List<Person> persons;
  private final List<List<PersonLink>> links;

  private Dataset(long seed, List<Person> persons, List<List<PersonLink>> links) {
    this.seed = seed;
    this.persons = persons;
    this.links = links;
  }

  /**
   * Builds the data set of size persons (ids 1..size) from seed, a uint64 carried in a
   * long. Throws IllegalArgumentException for a size outside [1, 1000000].
   */
  public static Dataset of(long seed, int size) {
    if (size < 1 || size > 1_000_000) {
      throw new IllegalArgumentException("data set size " + size + " out of range [1, 1000000]");
    }
    Pcg r = new Pcg(seed, SEED2);
    List<Person> persons = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      persons.add(newPerson(r, i + 1));
    }
    List<List<PersonLink>> links = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      List<PersonLink> l = new ArrayList<>(Contract.LINKS_PER_PERSON);
      for (int k = 1; k <= Contract.LINKS_PER_PERSON && k < size; k++) {
        l.add(new PersonLink(persons.get(i), persons.get((i + k) % size)));
      }
      links.add(Collections.unmodifiableList(l));
    }
    return new Dataset(seed, Collections.unmodifiableList(persons), Collections.unmodifiableList(links));
  }

  // The draws happen in exactly the order of contract.newPerson: gender, first, last,
  // city, title, street number, street, post code, then the picture number.
  private static Person newPerson(Pcg r, long id) {
    String gender = "female";
    String folder = "women";
    if (r.intN(2) == 0) {
      gender = "male";
      folder = "men";
    }
    String first = pick(r, FIRST_NAMES);
    String last = pick(r, LAST_NAMES);
    int city = r.intN(CITIES.length);
    String title = pick(r, TITLES);
    int number = 1 + r.intN(9999);
    String street = number + " " + pick(r, STREETS);
    String postCode = String.format(Locale.ROOT, "%05d", r.intN(100000));
    String email = (first + "." + last + "." + id + "@example.com").toLowerCase(Locale.ROOT);
    Picture picture = null;
    // One person in four has no picture, so every protocol must carry "absent".
    if (id % 4 != 0) {
      int n = r.intN(100);
      picture = new Picture("https://randomuser.me/api/portraits/" + folder + "/" + n + ".jpg",
          "https://randomuser.me/api/portraits/med/" + folder + "/" + n + ".jpg",
          "https://randomuser.me/api/portraits/thumb/" + folder + "/" + n + ".jpg");
    }
    return new Person(id, new PersonName(title, first, last), gender,
        new Location(street, CITIES[city], STATES[city], postCode), email, picture);
  }

  private static String pick(Pcg r, String[] s) {
    return s[r.intN(s.length)];
  }

  public long seed() {
    return seed;
  }

  public int size() {
    return persons.size();
  }

  /** The persons in id order (unmodifiable). */
  public List<Person> persons() {
    return persons;
  }

  /** The person with the given id, or null. */
  public Person person(long id) {
    return id < 1 || id > persons.size() ? null : persons.get((int) (id - 1));
  }

  /** The links whose first member has the given id (unmodifiable), or null for no such person. */
  public List<PersonLink> links(long id) {
    return id < 1 || id > persons.size() ? null : links.get((int) (id - 1));
  }
}
