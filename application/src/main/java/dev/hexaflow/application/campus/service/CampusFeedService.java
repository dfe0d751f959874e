package dev.hexaflow.application.campus.service;

import dev.hexaflow.application.campus.port.in.CampusFeedAnswer;
import dev.hexaflow.application.campus.port.in.CampusFeedQuery;
import dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase;
import dev.hexaflow.application.campus.port.out.CampusFeedMonitor;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.application.campus.port.out.FeedRenderer;
import dev.hexaflow.application.limits.port.in.AdmitRequestUseCase;
import dev.hexaflow.application.limits.port.in.AdmitRequestUseCase.Admission;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedEnvelope;
import dev.hexaflow.domain.campus.FeedMeta;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.FeedStatus;
import dev.hexaflow.domain.campus.JsonpCallback;
import dev.hexaflow.domain.campus.KeyCheck;
import dev.hexaflow.domain.campus.OutputFormat;
import dev.hexaflow.domain.secret.SecretHash;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Serves the feed in the order the checks matter to a client: an unknown method or format first (501), then a
 * callback that is not an identifier (400), then the key (511, 401, 403), then the key's request rate (429, which
 * counts no usage), then the data (200, or 204 when empty).
 */
public final class CampusFeedService implements ServeCampusFeedUseCase {

    private final CampusKeyRepository keys;
    private final CampusDataRepository data;
    private final FeedRenderer renderer;
    private final Clock clock;
    private final CampusFeedMonitor monitor;
    /** The rate of each granted key; none until the server's limits are wired ({@link #limitKeysWith}). */
    private volatile AdmitRequestUseCase rates;

    public CampusFeedService(CampusKeyRepository keys, CampusDataRepository data, FeedRenderer renderer,
            Clock clock) {
        this(keys, data, renderer, clock, CampusFeedMonitor.NONE);
    }

    /** @param monitor hears each answer's method and status (metrics) */
    public CampusFeedService(CampusKeyRepository keys, CampusDataRepository data, FeedRenderer renderer,
            Clock clock, CampusFeedMonitor monitor) {
        this.keys = keys;
        this.data = data;
        this.renderer = renderer;
        this.clock = clock;
        this.monitor = monitor;
    }

    /** Each granted key's requests are counted under {@code rates}' rate per campus key from now on. */
    public void limitKeysWith(AdmitRequestUseCase rates) {
        this.rates = rates;
    }

    @Override
    public CampusFeedAnswer serve(CampusFeedQuery query) {
        return heard(answerOf(query));
    }

    private CampusFeedAnswer answerOf(CampusFeedQuery query) {
        Optional<FeedMethod> method = FeedMethod.at(query.service(), query.resource());
        Optional<OutputFormat> format = OutputFormat.fromExtension(query.extension());
        // An error cannot be an iCalendar, so it goes out as JSON unless XML was asked for.
        OutputFormat errorFormat = format.filter(f -> f == OutputFormat.XML).orElse(OutputFormat.JSON);
        boolean callbackGiven = query.callback() != null && !query.callback().isEmpty();
        Optional<JsonpCallback> callback = callbackGiven && JsonpCallback.isValid(query.callback())
                ? Optional.of(new JsonpCallback(query.callback()))
                : Optional.empty();

        if (method.isEmpty() || format.isEmpty() || !method.get().offers(format.get())) {
            return error(FeedStatus.INVALID_METHOD, FeedMeta.NO_KEY, method, errorFormat, callback);
        }
        if (callbackGiven && callback.isEmpty() && format.get() == OutputFormat.JSON) {
            return error(FeedStatus.INVALID_CALLBACK, FeedMeta.NO_KEY, method, errorFormat, Optional.empty());
        }

        boolean keyGiven = query.key() != null && !query.key().isBlank();
        Optional<SecretHash> hash = keyGiven ? Optional.of(SecretHash.of(query.key())) : Optional.empty();
        KeyCheck check = KeyCheck.of(method.get(), keyGiven, hash.flatMap(keys::find));
        if (check instanceof KeyCheck.Refused refused) {
            return error(refused.status(), refused.requests(), method, errorFormat, callback);
        }

        if (rates != null && check instanceof KeyCheck.Granted granted) {
            Admission admission = rates.byCampusKey(granted.key().hash().hex());
            if (!admission.admitted()) {
                CampusFeedAnswer limited = error(FeedStatus.LIMIT_REACHED, granted.key().requests(), method,
                        errorFormat, callback);
                return new CampusFeedAnswer(limited.envelope(), limited.contentType(), limited.body(),
                        admission.retryAfterSeconds());
            }
        }
        List<CampusRecord> records = data.findAll(method.get());
        long requests = FeedMeta.NO_KEY;
        if (check instanceof KeyCheck.Granted granted) {
            requests = method.get().countsUsage(records.size())
                    ? keys.recordUse(granted.key().hash())
                    : granted.key().requests();
        }
        FeedStatus status = records.isEmpty() ? FeedStatus.NO_DATA : FeedStatus.OK;
        FeedEnvelope envelope = new FeedEnvelope(new FeedMeta(requests, now(), status, method), records);
        return answer(envelope, renderer.render(envelope, format.get(), callback));
    }

    @Override
    public CampusFeedAnswer unavailable() {
        return heard(error(FeedStatus.UNAVAILABLE, FeedMeta.NO_KEY, Optional.empty(), OutputFormat.JSON, Optional.empty()));
    }

    private CampusFeedAnswer heard(CampusFeedAnswer answer) {
        try {
            monitor.served(answer.envelope().meta());
        } catch (RuntimeException e) {
            // Metrics never cost a client its answer.
        }
        return answer;
    }

    private CampusFeedAnswer error(FeedStatus status, long requests, Optional<FeedMethod> method,
            OutputFormat format, Optional<JsonpCallback> callback) {
        FeedEnvelope envelope = FeedEnvelope.error(new FeedMeta(requests, now(), status, method));
        return answer(envelope, renderer.render(envelope, format, callback));
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }

    private static CampusFeedAnswer answer(FeedEnvelope envelope, FeedRenderer.RenderedFeed rendered) {
        return new CampusFeedAnswer(envelope, rendered.contentType(), rendered.body());
    }
}
