package io.wirebench.stack.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import org.apache.avro.specific.SpecificRecordBase;
import wirebench.v1.EchoMessage;
import wirebench.v1.ListPersonsRequest;
import wirebench.v1.Number;
import wirebench.v1.Person;
import wirebench.v1.PersonId;
import wirebench.v1.PersonLinkList;
import wirebench.v1.PersonList;
import wirebench.v1.StatsReply;
import wirebench.v1.StatsRequest;
import wirebench.v1.Trade;
import wirebench.v1.TradesRequest;

/**
 * The method descriptors of the grpc-avro services: grpc-proto's method paths
 * (/wirebench.v1.PersonService/GetPerson, ...) with Avro marshallers, written by hand
 * as there is no Avro code generator for grpc-java services.
 */
final class AvroMethods {
  private AvroMethods() {}

  static final String PERSON_SERVICE = "wirebench.v1.PersonService";
  static final String ECHO_SERVICE = "wirebench.v1.EchoService";
  static final String TRADE_SERVICE = "wirebench.v1.TradeService";

  static final MethodDescriptor<ListPersonsRequest, PersonList> LIST_PERSONS =
      unary(PERSON_SERVICE, "ListPersons", ListPersonsRequest.class, PersonList.class);
  static final MethodDescriptor<PersonId, Person> GET_PERSON = unary(PERSON_SERVICE, "GetPerson", PersonId.class, Person.class);
  static final MethodDescriptor<PersonId, PersonLinkList> GET_PERSON_LINKS =
      unary(PERSON_SERVICE, "GetPersonLinks", PersonId.class, PersonLinkList.class);
  static final MethodDescriptor<Person, Person> CREATE_PERSON = unary(PERSON_SERVICE, "CreatePerson", Person.class, Person.class);
  static final MethodDescriptor<EchoMessage, EchoMessage> ECHO = unary(ECHO_SERVICE, "Echo", EchoMessage.class, EchoMessage.class);
  static final MethodDescriptor<StatsRequest, StatsReply> STATS = unary(ECHO_SERVICE, "Stats", StatsRequest.class, StatsReply.class);
  static final MethodDescriptor<Number, Number> INCREMENT = unary(ECHO_SERVICE, "Increment", Number.class, Number.class);
  static final MethodDescriptor<TradesRequest, Trade> STREAM_TRADES = MethodDescriptor.<TradesRequest, Trade>newBuilder()
      .setType(MethodType.SERVER_STREAMING)
      .setFullMethodName(MethodDescriptor.generateFullMethodName(TRADE_SERVICE, "StreamTrades"))
      .setRequestMarshaller(new AvroMarshaller<>(TradesRequest.class))
      .setResponseMarshaller(new AvroMarshaller<>(Trade.class))
      .build();

  private static <Q extends SpecificRecordBase, R extends SpecificRecordBase> MethodDescriptor<Q, R> unary(
      String service, String method, Class<Q> req, Class<R> resp) {
    return MethodDescriptor.<Q, R>newBuilder()
        .setType(MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(service, method))
        .setRequestMarshaller(new AvroMarshaller<>(req))
        .setResponseMarshaller(new AvroMarshaller<>(resp))
        .build();
  }
}
