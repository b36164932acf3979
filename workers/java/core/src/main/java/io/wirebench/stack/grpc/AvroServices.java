package io.wirebench.stack.grpc;

import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import io.wirebench.contract.Reference;
import java.util.List;

/** The three wirebench.v1 services over Avro, bound by hand to AvroMethods' descriptors. */
final class AvroServices {
  private AvroServices() {}

  static List<ServerServiceDefinition> of(Reference svc) {
    ServerServiceDefinition persons = ServerServiceDefinition.builder(AvroMethods.PERSON_SERVICE)
        .addMethod(AvroMethods.LIST_PERSONS, ServerCalls.asyncUnaryCall(
            (req, out) -> ProtoServices.answer(out, () -> AvroConvert.toAvro(svc.listPersons()))))
        .addMethod(AvroMethods.GET_PERSON, ServerCalls.asyncUnaryCall(
            (req, out) -> ProtoServices.answer(out, () -> AvroConvert.toAvro(svc.getPerson(req.getId())))))
        .addMethod(AvroMethods.GET_PERSON_LINKS, ServerCalls.asyncUnaryCall(
            (req, out) -> ProtoServices.answer(out, () -> AvroConvert.toAvroLinks(svc.getPersonLinks(req.getId())))))
        .addMethod(AvroMethods.CREATE_PERSON, ServerCalls.asyncUnaryCall(
            (req, out) -> ProtoServices.answer(out, () -> AvroConvert.toAvro(svc.createPerson(AvroConvert.fromAvro(req))))))
        .build();
    ServerServiceDefinition echo = ServerServiceDefinition.builder(AvroMethods.ECHO_SERVICE)
        .addMethod(AvroMethods.ECHO, ServerCalls.asyncUnaryCall(
            (req, out) -> ProtoServices.answer(out, () -> new wirebench.v1.EchoMessage(svc.echo(req.getPayload())))))
        .addMethod(AvroMethods.STATS, ServerCalls.asyncUnaryCall(
            (req, out) -> ProtoServices.answer(out, () -> {
              var st = svc.stats();
              return new wirebench.v1.StatsReply(st.calls(), st.lastPayloadLen());
            })))
        .addMethod(AvroMethods.INCREMENT, ServerCalls.asyncUnaryCall(
            (req, out) -> ProtoServices.answer(out, () -> new wirebench.v1.Number(svc.increment(req.getValue())))))
        .build();
    ServerServiceDefinition trades = ServerServiceDefinition.builder(AvroMethods.TRADE_SERVICE)
        .addMethod(AvroMethods.STREAM_TRADES, ServerCalls.asyncServerStreamingCall(
            (req, out) -> TradeStreamer.serve(svc, req.getCount(), out, AvroConvert::toAvro)))
        .build();
    return List.of(persons, echo, trades);
  }
}
