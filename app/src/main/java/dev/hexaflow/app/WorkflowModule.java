package dev.hexaflow.app;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.persistence.FileSystemBlobStore;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiUploadRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWorkflowVersionRepository;
import dev.hexaflow.application.app.port.in.ImportAppUseCase;
import dev.hexaflow.application.app.port.out.RunRepository;
import dev.hexaflow.application.app.service.AppServices;
import dev.hexaflow.application.common.SecretGenerator;
import dev.hexaflow.application.workflow.engine.WorkflowEngine;
import dev.hexaflow.domain.net.IpAddress;
import dev.hexaflow.domain.net.OutboundPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import dev.hexaflow.application.common.TimeOrderedIds;
import dev.hexaflow.adapters.persistence.jdbi.WriteGate;
import dev.hexaflow.application.app.port.out.StorageHealth;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workflow service's use cases on the Jdbi repositories, the blob store and the standard engine. Closing it
 * commits the writes its repositories have queued.
 */
final class WorkflowModule implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkflowModule.class);

    static final String DEMO_DSL = "/demo/holiday-counter.yml";
    static final String DEMO_FEED = "http://127.0.0.1:8080/v2/events/holidays.json";

    final AppServices services;
    final RunRepository runs;
    private final JdbiEndUserRepository endUsers;
    final WorkflowEngine engine;
    private final JdbiUploadRepository uploads;
    private final FileSystemBlobStore blobStore;
    private final AtomicReference<OutboundPolicy> outbound;
    /** The code runners' worker processes, ended with the module. */
    private final java.util.List<AutoCloseable> codeRunners = new java.util.ArrayList<>();

    WorkflowModule(Jdbi jdbi, Path blobs, SecretGenerator secrets, Configuration config, Clock clock) {
        this(jdbi, blobs, secrets, config, clock, WriteGate.OPEN, StorageHealth.UNWATCHED);
    }

    /**
     * @param gate refuses the writers' changes at once while the store cannot keep them
     * @param storage refuses new runs and uploads while the store cannot keep them
     */
    WorkflowModule(Jdbi jdbi, Path blobs, SecretGenerator secrets, Configuration config, Clock clock, WriteGate gate,
            StorageHealth storage) {
        JdbiUploadRepository uploads = new JdbiUploadRepository(jdbi);
        FileSystemBlobStore blobStore = new FileSystemBlobStore(blobs);
        this.uploads = uploads;
        this.blobStore = blobStore;
        this.runs = new JdbiRunRepository(jdbi, gate);
        this.endUsers = new JdbiEndUserRepository(jdbi, gate);
        this.outbound = new AtomicReference<>(config.engine().outbound());
        this.engine = Engines.standard(config.engine(), remote -> new UploadedFileContents(uploads, blobStore,
                remote), outbound::get, codeRunners::add);
        AppServices.Ports ports = new AppServices.Ports(new JdbiAppRepository(jdbi),
                new JdbiWorkflowVersionRepository(jdbi), new JdbiAppKeyRepository(jdbi),
                endUsers, uploads, blobStore, runs, new YamlWorkflowDslReader(), secrets,
                new HmacSigner());
        this.services = new AppServices(ports, engine, config.service().uploads(), config.service().maxRunsPerApp(),
                clock, new TimeOrderedIds(), storage);
    }

    @Override
    public void close() {
        try {
            runs.close();
        } finally {
            endUsers.close();
            for (AutoCloseable runner : codeRunners) {
                try {
                    runner.close();
                } catch (Exception e) {
                    LOG.warn("A code runner did not close: {}", e.toString());
                }
            }
        }
    }

    /**
     * Lets workflows call this server itself on the port it answers on (the demo app reads the campus feed this
     * way); its API is what every client of the server reaches anyway.
     */
    void allowOwnOrigin(String host, int port) {
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                outbound.updateAndGet(policy -> policy.allowingOwnOrigin(IpAddress.of(address.getAddress()), port));
            }
        } catch (UnknownHostException e) {
            LOG.warn("The server's own host {} does not resolve; workflows cannot call this server", host);
        }
    }

    /** Ends the runs a previous process left running: they cannot go on, and must not stay running for ever. */
    int closeInterruptedRuns(Clock clock) {
        return runs.failUnfinished("The server stopped during the run.", clock.instant().getEpochSecond());
    }

    /**
     * Deletes blobs no upload names: an upload cut off between its blob and its record (a crash) leaves only a
     * blob, which no one can reach. Answers how many it deleted.
     */
    int deleteOrphanBlobs() {
        int deleted = 0;
        Set<String> named = uploads.blobKeys();
        for (String key : blobStore.keys()) {
            if (!named.contains(key)) {
                blobStore.delete(key);
                deleted++;
            }
        }
        return deleted;
    }

    /** Imports the bundled demo app, reading the campus feed of the server at {@code baseUrl}. */
    ImportAppUseCase.ImportedApp importDemo(String baseUrl) {
        try (InputStream in = WorkflowModule.class.getResourceAsStream(DEMO_DSL)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + DEMO_DSL);
            }
            String dsl = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace(DEMO_FEED, baseUrl + "/v2/events/holidays.json");
            return services.importApp.importApp(dsl.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
