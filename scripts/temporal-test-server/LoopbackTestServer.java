import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Temporal's time-skipping test server, listening on 127.0.0.1 only.
 *
 * <p>Takes exactly the arguments of io.temporal.testserver.TestServer, which is what the TypeScript
 * SDK passes to an existing-path test server: {@code <port> [--enable-time-skipping]}. TestServer's own
 * main binds every interface; the tests must not open a port to the network, so this binds the loopback
 * address and is otherwise the same (time skipping locked unless the flag is given; the SDK unlocks it
 * while a test awaits a result).
 */
public final class LoopbackTestServer {
  private LoopbackTestServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2) {
      System.err.println("Usage: temporal-test-server <port> [--enable-time-skipping]");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    boolean enableTimeSkipping = false;
    if (args.length == 2) {
      if (!"--enable-time-skipping".equalsIgnoreCase(args[1])) {
        System.err.println("Unknown flag " + args[1]);
        System.exit(2);
      }
      enableTimeSkipping = true;
    }
    TestServicesStarter services = new TestServicesStarter(!enableTimeSkipping, 0L);
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    Server server = builder.build().start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.shutdown();
                  services.close();
                }));
    server.awaitTermination();
  }
}
