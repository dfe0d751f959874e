package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.campus.parse.JacksonCampusDataParser;
import dev.hexaflow.adapters.campus.render.JacksonBiweeklyFeedRenderer;
import dev.hexaflow.adapters.persistence.InMemoryCachingCampusDataRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusDataRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.WriteGate;
import dev.hexaflow.adapters.persistence.memory.InMemoryInstanceSignals;
import dev.hexaflow.application.campus.port.in.BanCampusKeyUseCase;
import dev.hexaflow.application.campus.port.in.ImportCampusDataCommand;
import dev.hexaflow.application.campus.port.in.ImportCampusDataUseCase;
import dev.hexaflow.application.campus.port.in.IssueCampusKeyUseCase;
import dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.application.campus.port.out.CampusFeedMonitor;
import dev.hexaflow.application.campus.service.BanCampusKeyService;
import dev.hexaflow.application.campus.service.CampusFeedService;
import dev.hexaflow.application.campus.service.ImportCampusDataService;
import dev.hexaflow.application.campus.service.IssueCampusKeyService;
import dev.hexaflow.application.common.port.out.InstanceSignals;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.limits.port.in.AdmitRequestUseCase;
import dev.hexaflow.domain.campus.DataFileFormat;
import dev.hexaflow.domain.campus.FeedMethod;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import org.jdbi.v3.core.Jdbi;

/** The campus feed's use cases, wired on the Jdbi repositories. */
public final class CampusModule implements AutoCloseable {

    public final ServeCampusFeedUseCase feed;
    public final IssueCampusKeyUseCase issueKey;
    public final BanCampusKeyUseCase banKey;
    public final ImportCampusDataUseCase importData;

    private final JdbiCampusKeyRepository keys;
    private final CampusFeedService service;

    public CampusModule(Jdbi jdbi, SecretGenerator secrets, Clock clock) {
        this(jdbi, secrets, clock, WriteGate.OPEN, InMemoryInstanceSignals.ALONE);
    }

    /**
     * @param gate      refuses usage counts at once while the store cannot keep them
     * @param instances hear of data sets another instance imported, which this one then reads afresh
     */
    public CampusModule(Jdbi jdbi, SecretGenerator secrets, Clock clock, WriteGate gate, InstanceSignals instances) {
        this(jdbi, secrets, clock, gate, instances, CampusFeedMonitor.NONE);
    }

    /** @param monitor hears each answer of the feed (metrics) */
    public CampusModule(Jdbi jdbi, SecretGenerator secrets, Clock clock, WriteGate gate, InstanceSignals instances,
            CampusFeedMonitor monitor) {
        this.keys = new JdbiCampusKeyRepository(jdbi, gate);
        CampusDataRepository data = new InMemoryCachingCampusDataRepository(new JdbiCampusDataRepository(jdbi),
                instances);
        this.service = new CampusFeedService(keys, data, new JacksonBiweeklyFeedRenderer(), clock, monitor);
        this.feed = service;
        this.issueKey = new IssueCampusKeyService(keys, secrets);
        this.banKey = new BanCampusKeyService(keys);
        this.importData = new ImportCampusDataService(new JacksonCampusDataParser(), data);
    }

    /** Each granted key's requests are counted under the server's rate per campus key (the limits context's). */
    public void limitKeysWith(AdmitRequestUseCase rates) {
        service.limitKeysWith(rates);
    }

    /**
     * The feed of the bundled data alone, in memory, for a workflow run with no server ({@code hexaflow run} and
     * {@code chat}): the built-in campus tool reads the same holidays a first start loads.
     */
    public static ServeCampusFeedUseCase bundledFeed(Clock clock) {
        CampusDataRepository data = new dev.hexaflow.adapters.persistence.memory.InMemoryCampusDataRepository();
        ImportCampusDataService importer = new ImportCampusDataService(new JacksonCampusDataParser(), data);
        for (FeedMethod dataSet : FeedMethod.values()) {
            importer.importData(new ImportCampusDataCommand(dataSet, DataFileFormat.CSV, bundled(dataSet), true));
        }
        return new CampusFeedService(new dev.hexaflow.adapters.persistence.memory.InMemoryCampusKeyRepository(), data,
                new JacksonBiweeklyFeedRenderer(), clock);
    }

    /** Loads the bundled data sets (the real holidays, made-up tutors and printers) into those still empty. */
    public void loadBundledData() {
        for (FeedMethod dataSet : FeedMethod.values()) {
            importData.importData(new ImportCampusDataCommand(dataSet, DataFileFormat.CSV, bundled(dataSet), true));
        }
    }

    /** Commits the campus keys' uses answered so far: a backup holds every use answered before it began. */
    public void keepUsesNow() {
        keys.keepUsesNow();
    }

    /** Commits the usage counted so far. */
    @Override
    public void close() {
        keys.close();
    }

    private static byte[] bundled(FeedMethod dataSet) {
        String resource = "/campus/" + dataSet.resource() + ".csv";
        try (InputStream in = CampusModule.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource + " from the jar failed", e);
        }
    }
}
