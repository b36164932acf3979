package io.wirebench.stack.grpc;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;

/**
 * The message workload's echo on grpc-proto: the unary method
 * wirebench.v1.MessageService/Echo, whose request and answer are a user's own message
 * (docs/your-service.md). grpc-protobuf's marshaller decodes each request into a
 * DynamicMessage of the type, and that decoded message is the answer, encoded again.
 */
final class MessageEcho {
  private MessageEcho() {}

  static final String SERVICE = "wirebench.v1.MessageService";

  static ServerServiceDefinition of(Descriptor type) {
    MethodDescriptor.Marshaller<DynamicMessage> m = ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(type));
    MethodDescriptor<DynamicMessage, DynamicMessage> echo = MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Echo"))
        .setRequestMarshaller(m)
        .setResponseMarshaller(m)
        .build();
    return ServerServiceDefinition.builder(SERVICE)
        .addMethod(echo, ServerCalls.asyncUnaryCall((req, out) -> {
          out.onNext(req);
          out.onCompleted();
        }))
        .build();
  }
}
