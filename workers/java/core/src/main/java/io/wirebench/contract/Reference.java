package io.wirebench.contract;

import io.wirebench.contract.Model.Person;
import io.wirebench.contract.Model.PersonLink;
import io.wirebench.contract.Model.Stats;
import io.wirebench.contract.Model.Trade;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory service every server stack serves (contract/reference.go): the same
 * answers and the same refusals as the Go reference. Safe for concurrent use; its hot
 * paths take no lock.
 */
public final class Reference {
  private final Dataset data;
  private final AtomicLong nextId;
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong lastLen = new AtomicLong();

  public Reference(Dataset data) {
    this.data = data;
    this.nextId = new AtomicLong(data.size());
  }

  public Dataset dataset() {
    return data;
  }

  /** The whole data set, shared: callers only encode it. */
  public List<Person> listPersons() {
    return data.persons();
  }

  public Person getPerson(long id) {
    Person p = data.person(id);
    if (p == null) {
      throw new ContractException(Code.NOT_FOUND, "no person with id " + id);
    }
    return p;
  }

  public List<PersonLink> getPersonLinks(long id) {
    List<PersonLink> l = data.links(id);
    if (l == null) {
      throw new ContractException(Code.NOT_FOUND, "no person with id " + id);
    }
    return l;
  }

  /** Validates p and returns it with a fresh id above the data set's ids. */
  public Person createPerson(Person p) {
    validateNewPerson(p);
    return p.withId(nextId.incrementAndGet());
  }

  /** The check of contract.ValidateNewPerson: a first and last name, an email with '@'. */
  public static void validateNewPerson(Person p) {
    if (p.name() == null || isEmpty(p.name().first()) || isEmpty(p.name().last())) {
      throw new ContractException(Code.INVALID_ARGUMENT, "person needs a first and a last name");
    }
    if (p.email() == null || !p.email().contains("@")) {
      throw new ContractException(Code.INVALID_ARGUMENT,
          "person email \"" + (p.email() == null ? "" : p.email()) + "\" has no '@'");
    }
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }

  /**
   * Echo counts the call and the payload's length in bytes as Go counts it: UTF-8 bytes,
   * not Java chars.
   */
  public String echo(String payload) {
    calls.incrementAndGet();
    lastLen.set(utf8Length(payload));
    return payload;
  }

  public Stats stats() {
    return new Stats(calls.get(), lastLen.get());
  }

  public long increment(long n) {
    return n + 1;
  }

  /**
   * The trades of a StreamTrades call, TradeAt(0) ... TradeAt(count-1), pulled one at a
   * time (so a server can follow its transport's flow control). Refuses a count outside
   * [0, MAX_TRADES] with INVALID_ARGUMENT before any trade.
   */
  public Iterator<Trade> trades(long count) {
    return stream(count, Contract::tradeAt);
  }

  /** The trades of a StreamOriginalTrades call, as trades() for originalTradeAt. */
  public Iterator<Model.OriginalTrade> originalTrades(long count) {
    return stream(count, Contract::originalTradeAt);
  }

  private static <T> Iterator<T> stream(long count, java.util.function.LongFunction<T> at) {
    if (count < 0 || count > Contract.MAX_TRADES) {
      throw new ContractException(Code.INVALID_ARGUMENT,
          "trade count " + count + " out of range [0, " + Contract.MAX_TRADES + "]");
    }
    return new Iterator<>() {
      private long i;

      @Override
      public boolean hasNext() {
        return i < count;
      }

      @Override
      public T next() {
        if (i >= count) {
          throw new NoSuchElementException();
        }
        return at.apply(i++);
      }
    };
  }

  /** The length of s in UTF-8 bytes. */
  public static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
