package dev.hexaflow.application.tools.service;

import dev.hexaflow.application.campus.port.in.CampusFeedAnswer;
import dev.hexaflow.application.campus.port.in.CampusFeedQuery;
import dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Hexaflow's own built-in tool {@code hexaflow/campus_holidays}: this server's campus holidays, as an anonymous
 * caller of {@code GET /v2/events/holidays.json} gets them, read through the feed's use case. A workflow (the demo
 * apps) reads its own server's feed this way rather than over the network: the outbound policy refuses the
 * server's own loopback address like any other.
 *
 * <p>It lives in the composition root because it drives an inbound use case, which no adapter may reach.
 */
public final class CampusFeedToolRunner implements ToolRunner {

    static final String PROVIDER = "hexaflow";
    static final String HOLIDAYS = "campus_holidays";

    private final Supplier<ServeCampusFeedUseCase> feed;

    /** @param feed the feed, or null where this process serves none (a command of the command line) */
    public CampusFeedToolRunner(Supplier<ServeCampusFeedUseCase> feed) {
        this.feed = feed;
    }

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        return List.of(PROVIDER + "/" + HOLIDAYS);
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        boolean ours = (tool.type() == ToolProviderType.BUILTIN || tool.type() == ToolProviderType.PLUGIN)
                && tool.provider().equals(PROVIDER) && tool.tool().equals(HOLIDAYS);
        return ours ? Optional.of(new ToolDescription(tool, "The university holidays of this server's campus feed, "
                + "as the JSON of GET /v2/events/holidays.json.", Map.of("type", "object", "properties",
                Map.of()))) : Optional.empty();
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        ServeCampusFeedUseCase served = feed.get();
        if (served == null) {
            throw new ToolException("This process serves no campus feed; run the app on the server.");
        }
        CampusFeedAnswer answer = served.serve(new CampusFeedQuery("events", "holidays", "json", null, null));
        String body = new String(answer.body(), StandardCharsets.UTF_8);
        if (answer.httpStatus() != 200) {
            throw new ToolException("The campus feed answered " + answer.httpStatus() + ": " + body);
        }
        return List.of(new ToolMessage.Text(body));
    }
}
