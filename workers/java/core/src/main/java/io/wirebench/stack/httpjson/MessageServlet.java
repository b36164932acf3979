package io.wirebench.stack.httpjson;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.wirebench.contract.Code;
import io.wirebench.contract.Reference;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * POST /message/echo: the message workload's route (docs/your-service.md). The body,
 * a user's own message in the protobuf JSON mapping, is parsed into a DynamicMessage
 * of the type with protobuf-java's JsonFormat, and that message is printed back as
 * the answer; a body that is not the message is 400 (invalid_argument).
 */
final class MessageServlet extends JsonServlet {
  private final Descriptor type;
  private final JsonFormat.Parser parser = JsonFormat.parser();
  private final JsonFormat.Printer printer = JsonFormat.printer().omittingInsignificantWhitespace();

  MessageServlet(Reference svc, int limit, Descriptor type) {
    super(svc, limit, "POST");
    this.type = type;
  }

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String body = new String(readBytes(req), StandardCharsets.UTF_8);
    DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
    try {
      parser.merge(body, b);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      writeError(resp, 400, Code.INVALID_ARGUMENT, "bad request body: " + e.getMessage());
      return;
    }
    byte[] out = printer.print(b.build()).getBytes(StandardCharsets.UTF_8);
    resp.setStatus(200);
    resp.setContentType("application/json");
    resp.setContentLength(out.length);
    resp.getOutputStream().write(out);
  }
}
