/*
 * ScalaPB 0.8's message generator as a protoc plugin: reads protoc's CodeGeneratorRequest on
 * stdin, writes the CodeGeneratorResponse on stdout. ScalaPB 0.8 published no protoc-plugin
 * artifact (protoc-gen-scala starts later); its generator, scalapb.ScalaPbCodeGenerator, ships
 * inside akka-grpc-codegen_2.12:0.4.2's assembly jar, the one Akka gRPC 0.4.2 ran in sbt.
 * Run by protoc-gen-scalapb08 with the JDK's source launcher and that jar on the class path.
 */
public class ScalaPb08Plugin {
  public static void main(String[] args) throws Exception {
    byte[] in = System.in.readAllBytes();
    byte[] out = scalapb.ScalaPbCodeGenerator$.MODULE$.run(in);
    System.out.write(out);
    System.out.flush();
  }
}
