package io.wirebench.stack.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * A grpc-java marshaller of one Avro record type, as Avro travelled over grpc-java in
 * the Scala RPC frameworks: each message is the record's binary encoding alone, no
 * container header and no schema fingerprint (both ends know the schema from the
 * method), the same bytes as the Go grpc-avro codec. A message that does not decode,
 * or has bytes after its record, fails with INTERNAL, grpc-java's status for a
 * message it cannot parse.
 *
 * <p>Bounds: Avro's decoder sizes a string's buffer and an array from their length
 * prefixes before reading them. The message is already bounded by the transport's
 * limit, and the static block below caps Avro's own limits (org.apache.avro.limits.*,
 * unless set on the command line) at 64 MiB + 16 per string or bytes (the largest
 * echo payload) and 1,000,000 items per array (the largest data set), so a hostile
 * length prefix costs at most that much memory before it fails.
 *
 * <p>Safe for concurrent use: readers and writers are per thread.
 */
final class AvroMarshaller<T extends SpecificRecordBase> implements MethodDescriptor.Marshaller<T> {
  static {
    limit("org.apache.avro.limits.string.maxLength", (64 << 20) + 16);
    limit("org.apache.avro.limits.bytes.maxLength", (64 << 20) + 16);
    limit("org.apache.avro.limits.collectionItems.maxLength", 1_000_000);
  }

  private static void limit(String property, int value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, Integer.toString(value));
    }
  }

  private final Schema schema;
  private final ThreadLocal<SpecificDatumWriter<T>> writers;
  private final ThreadLocal<SpecificDatumReader<T>> readers;

  AvroMarshaller(Class<T> type) {
    this.schema = SpecificData.get().getSchema(type);
    this.writers = ThreadLocal.withInitial(() -> new SpecificDatumWriter<>(schema));
    this.readers = ThreadLocal.withInitial(() -> new SpecificDatumReader<>(schema));
  }

  @Override
  public InputStream stream(T value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    BinaryEncoder enc = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      writers.get().write(value, enc);
      enc.flush();
    } catch (IOException | RuntimeException e) {
      throw Status.INTERNAL.withDescription("avro: encoding " + schema.getName() + ": " + e).withCause(e).asRuntimeException();
    }
    return new ByteArrayInputStream(out.toByteArray());
  }

  @Override
  public T parse(InputStream stream) {
    try {
      byte[] b = stream.readAllBytes();
      BinaryDecoder dec = DecoderFactory.get().binaryDecoder(b, null);
      T v = readers.get().read(null, dec);
      if (!dec.isEnd()) {
        throw Status.INTERNAL.withDescription("avro: bytes after the " + schema.getName() + " record").asRuntimeException();
      }
      return v;
    } catch (IOException | RuntimeException | OutOfMemoryError e) {
      if (e instanceof io.grpc.StatusRuntimeException sre) {
        throw sre;
      }
      throw Status.INTERNAL.withDescription("avro: decoding " + schema.getName() + ": " + e).withCause(e).asRuntimeException();
    }
  }
}
