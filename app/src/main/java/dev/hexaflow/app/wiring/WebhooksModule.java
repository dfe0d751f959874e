package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.clients.net.JdkHttpCallbackSender;
import dev.hexaflow.adapters.http.wire.JacksonRunDetailRenderer;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.app.adapters.HmacWebhookSigner;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.jobs.WebhookDelivery;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.runs.port.out.CompletionWebhooks;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.application.webhooks.port.in.DeliverCallbacksUseCase;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase;
import dev.hexaflow.application.webhooks.port.in.RedeliverUseCase;
import dev.hexaflow.application.webhooks.port.in.ManageWebhooksUseCase;
import dev.hexaflow.application.webhooks.port.out.DeliveryMonitor;
import dev.hexaflow.application.webhooks.service.DeliverCallbacksService;
import dev.hexaflow.application.webhooks.service.ListDeliveriesService;
import dev.hexaflow.application.webhooks.service.RedeliverService;
import dev.hexaflow.application.webhooks.service.ManageWebhooksService;
import dev.hexaflow.application.webhooks.service.RunCallbacks;
import dev.hexaflow.application.webhooks.service.RunCompletionWebhooks;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.domain.webhook.RetrySchedule;
import java.time.Clock;
import org.jdbi.v3.core.Jdbi;

/**
 * The webhooks context: an app's webhook settings, the deliveries of finished runs (kept, signed, sent with
 * retries by {@link WebhookDelivery}), and the hook the runs context tells of a run's end.
 */
public final class WebhooksModule implements AutoCloseable {

    public final ManageWebhooksUseCase webhooks;
    public final ListDeliveriesUseCase deliveries;
    public final RedeliverUseCase redeliver;
    final DeliverCallbacksUseCase deliverCallbacks;
    /** What the runs context tells of a run with a callback that has ended. */
    final CompletionWebhooks completion;
    final WebhookDelivery delivery;

    WebhooksModule(Jdbi jdbi, Configuration config, AppRepository apps, RunRepository runs, SecretGenerator secrets,
            InstanceOrigins outbound, Clock clock, DeliveryMonitor monitor) {
        JdbiWebhookSettingsRepository settings = new JdbiWebhookSettingsRepository(jdbi);
        JdbiDeliveryRepository records = new JdbiDeliveryRepository(jdbi);
        RetrySchedule retries = config.service().webhooks();
        this.delivery = new WebhookDelivery(retries);
        this.webhooks = new ManageWebhooksService(apps, settings, secrets);
        this.deliveries = new ListDeliveriesService(apps, records);
        this.redeliver = new RedeliverService(apps, records, clock);
        this.deliverCallbacks = new DeliverCallbacksService(records, settings, runs, new JacksonRunDetailRenderer(),
                new JdkHttpCallbackSender(new OutboundExchange(outbound)), secrets, new HmacWebhookSigner(), retries,
                clock, delivery.senders(), WebhookDelivery.SENDERS, monitor);
        delivery.deliverWith(deliverCallbacks);
        this.completion = new RunCompletionWebhooks(new RunCallbacks(settings, records, clock, new TimeOrderedIds(),
                delivery::deliverSoon));
    }

    @Override
    public void close() {
        delivery.close();
    }
}
