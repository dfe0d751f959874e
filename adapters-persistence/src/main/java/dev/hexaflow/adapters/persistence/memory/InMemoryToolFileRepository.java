package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.tools.port.out.ToolFileRepository;
import dev.hexaflow.domain.tool.ToolFile;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/** Tool file records in a map: for a one-off run, and as the contract's reference. */
public final class InMemoryToolFileRepository implements ToolFileRepository {

    private final Map<String, ToolFile> files = new ConcurrentHashMap<>();

    @Override
    public void save(ToolFile file) {
        files.put(file.id(), file);
    }

    @Override
    public Optional<ToolFile> find(String id) {
        return Optional.ofNullable(files.get(id));
    }

    @Override
    public Set<String> blobKeys() {
        return files.values().stream().map(ToolFile::blobKey).collect(Collectors.toSet());
    }
}
