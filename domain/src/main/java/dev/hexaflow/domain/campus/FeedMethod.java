package dev.hexaflow.domain.campus;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The catalogue of feed methods: their ids, the paths they answer on, the formats they offer, and the
 * rules of key and usage that set them apart.
 */
public enum FeedMethod {
    TUTORS(1481, "resources", "tutors", List.of("resources"), true, false, null,
            EnumSet.of(OutputFormat.JSON, OutputFormat.XML)),
    PRINTERS(1123, "resources", "printers", List.of("resources", "resoruces"), true, false, 2.07,
            EnumSet.of(OutputFormat.JSON, OutputFormat.XML)),
    HOLIDAYS(1423, "events", "holidays", List.of("events"), false, true, 2.07,
            EnumSet.of(OutputFormat.JSON, OutputFormat.XML, OutputFormat.ICS));

    private final int id;
    private final String serviceName;
    private final String resource;
    private final List<String> servicePaths;
    private final boolean keyRequired;
    private final boolean emptyResultCounts;
    private final Double version;
    private final Set<OutputFormat> formats;

    FeedMethod(int id, String serviceName, String resource, List<String> servicePaths, boolean keyRequired,
            boolean emptyResultCounts, Double version, Set<OutputFormat> formats) {
        this.id = id;
        this.serviceName = serviceName;
        this.resource = resource;
        this.servicePaths = servicePaths;
        this.keyRequired = keyRequired;
        this.emptyResultCounts = emptyResultCounts;
        this.version = version;
        this.formats = formats;
    }

    /** Finds the method served at {@code /{service}/{resource}.{format}}; printers also answer on "resoruces". */
    public static Optional<FeedMethod> at(String service, String resource) {
        for (FeedMethod method : values()) {
            if (method.resource.equals(resource) && method.servicePaths.contains(service)) {
                return Optional.of(method);
            }
        }
        return Optional.empty();
    }

    /** Finds a method by its data set name: tutors, printers or holidays. */
    public static Optional<FeedMethod> ofDataSet(String name) {
        for (FeedMethod method : values()) {
            if (method.resource.equals(name)) {
                return Optional.of(method);
            }
        }
        return Optional.empty();
    }

    public int id() {
        return id;
    }

    public String serviceName() {
        return serviceName;
    }

    /** The data set name, which is also the last path segment: tutors, printers or holidays. */
    public String resource() {
        return resource;
    }

    public boolean keyRequired() {
        return keyRequired;
    }

    /** The envelope's meta.version, or empty where the method's result carries none (tutors). */
    public Optional<Double> version() {
        return Optional.ofNullable(version);
    }

    public boolean offers(OutputFormat format) {
        return formats.contains(format);
    }

    public Set<OutputFormat> formats() {
        return EnumSet.copyOf(formats);
    }

    /** Whether a successful call that returned {@code recordCount} records adds to the key's usage. */
    public boolean countsUsage(int recordCount) {
        return recordCount > 0 || emptyResultCounts;
    }
}
