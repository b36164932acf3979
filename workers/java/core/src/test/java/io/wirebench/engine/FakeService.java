package io.wirebench.engine;

import io.wirebench.contract.Model;
import io.wirebench.contract.Service;
import java.util.List;

/** A Service whose calls a test stubs out; the engine only calls what the op calls. */
class FakeService implements Service {
  @Override
  public List<Model.Person> listPersons() {
    throw new UnsupportedOperationException();
  }

  @Override
  public Model.Person getPerson(long id) {
    throw new UnsupportedOperationException();
  }

  @Override
  public List<Model.PersonLink> getPersonLinks(long id) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Model.Person createPerson(Model.Person p) {
    throw new UnsupportedOperationException();
  }

  @Override
  public String echo(String payload) {
    return payload;
  }

  @Override
  public Model.Stats stats() {
    throw new UnsupportedOperationException();
  }

  @Override
  public long increment(long n) {
    return n + 1;
  }

  @Override
  public void streamTrades(long count, TradeSink sink) {
    throw new UnsupportedOperationException();
  }
}
