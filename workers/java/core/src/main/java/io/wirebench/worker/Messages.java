package io.wirebench.worker;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import io.wirebench.control.v1.Benchmark;
import java.util.HashMap;
import java.util.Map;

/**
 * The message workload's type, read from a setup: message_schema is a FileDescriptorSet
 * holding the user's file and every file it imports (the driver writes imports first),
 * message_name the message's full name.
 */
final class Messages {
  private Messages() {}

  /** The message type of b, or null when its workload is not "message". */
  static Descriptor of(Benchmark b) {
    if (!"message".equals(b.getWorkload())) {
      return null;
    }
    FileDescriptorSet set;
    try {
      set = FileDescriptorSet.parseFrom(b.getMessageSchema());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("message_schema: not a FileDescriptorSet: " + e.getMessage());
    }
    Map<String, FileDescriptorProto> protos = new HashMap<>();
    for (FileDescriptorProto f : set.getFileList()) {
      protos.put(f.getName(), f);
    }
    Map<String, FileDescriptor> built = new HashMap<>();
    for (FileDescriptorProto f : set.getFileList()) {
      build(f, protos, built);
    }
    String name = b.getMessageName().startsWith(".") ? b.getMessageName().substring(1) : b.getMessageName();
    for (FileDescriptor f : built.values()) {
      String pkg = f.getPackage().isEmpty() ? "" : f.getPackage() + ".";
      if (!name.startsWith(pkg)) {
        continue;
      }
      Descriptor d = find(f, name.substring(pkg.length()));
      if (d != null) {
        return d;
      }
    }
    throw new IllegalArgumentException("message_name " + b.getMessageName() + ": no such message in message_schema");
  }

  private static FileDescriptor build(FileDescriptorProto f, Map<String, FileDescriptorProto> protos, Map<String, FileDescriptor> built) {
    FileDescriptor done = built.get(f.getName());
    if (done != null) {
      return done;
    }
    FileDescriptor[] deps = new FileDescriptor[f.getDependencyCount()];
    for (int i = 0; i < deps.length; i++) {
      FileDescriptorProto dep = protos.get(f.getDependency(i));
      if (dep == null) {
        throw new IllegalArgumentException("message_schema: " + f.getName() + " imports " + f.getDependency(i) + ", which is not in the set");
      }
      deps[i] = build(dep, protos, built);
    }
    try {
      FileDescriptor fd = FileDescriptor.buildFrom(f, deps);
      built.put(f.getName(), fd);
      return fd;
    } catch (DescriptorValidationException e) {
      throw new IllegalArgumentException("message_schema: " + f.getName() + ": " + e.getMessage());
    }
  }

  /** The message of a dotted name relative to its file's package (Outer.Inner), or null. */
  private static Descriptor find(FileDescriptor f, String relative) {
    String[] parts = relative.split("\\.");
    Descriptor d = f.findMessageTypeByName(parts[0]);
    for (int i = 1; d != null && i < parts.length; i++) {
      d = d.findNestedTypeByName(parts[i]);
    }
    return d;
  }
}
