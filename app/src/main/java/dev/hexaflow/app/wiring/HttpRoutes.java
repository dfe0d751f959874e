package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.http.admin.AdminAppRoutes;
import dev.hexaflow.adapters.http.admin.AdminAuthorization;
import dev.hexaflow.adapters.http.admin.AdminBackupRoutes;
import dev.hexaflow.adapters.http.admin.AdminCampusRoutes;
import dev.hexaflow.adapters.http.admin.AdminChatRoutes;
import dev.hexaflow.adapters.http.admin.AdminInstanceRoutes;
import dev.hexaflow.adapters.http.admin.AdminKnowledgeRoutes;
import dev.hexaflow.adapters.http.admin.AdminMcpServerRoutes;
import dev.hexaflow.adapters.http.admin.AdminRunRoutes;
import dev.hexaflow.adapters.http.admin.AdminToolRoutes;
import dev.hexaflow.adapters.http.admin.AdminTriggerRoutes;
import dev.hexaflow.adapters.http.admin.AdminWebhookRoutes;
import dev.hexaflow.adapters.http.campus.CampusFeedRoutes;
import dev.hexaflow.adapters.http.limits.AdminLimitRoutes;
import dev.hexaflow.adapters.http.limits.BudgetRoutes;
import dev.hexaflow.adapters.http.mcpserver.McpServerRoutes;
import dev.hexaflow.adapters.http.openapi.OpenApiRoutes;
import dev.hexaflow.adapters.http.server.RefusedCredentials;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiCors;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiIndexRoutes;
import dev.hexaflow.adapters.http.serviceapi.chat.AnnotationRoutes;
import dev.hexaflow.adapters.http.serviceapi.chat.ChatRoutes;
import dev.hexaflow.adapters.http.serviceapi.chat.CompletionRoutes;
import dev.hexaflow.adapters.http.serviceapi.chat.ConversationRoutes;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeApiRoutes;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeMetadataRoutes;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeTagRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.AppInfoRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.EndUserRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.FilePreviewRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.HumanInputRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.LogRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.RunRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.ToolFileRoutes;
import dev.hexaflow.adapters.http.serviceapi.workflow.UploadRoutes;
import dev.hexaflow.adapters.http.triggers.WebhookTriggerRoutes;
import dev.hexaflow.adapters.http.webapp.ConsoleRoutes;
import dev.hexaflow.adapters.http.webapp.FormPageRoutes;
import dev.hexaflow.adapters.http.webapp.WebAppRoutes;
import dev.hexaflow.adapters.persistence.jdbi.JdbiInstanceLeases;
import dev.hexaflow.app.cli.CommandLine;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.ServiceSettings;
import dev.hexaflow.application.instances.service.ListInstancesService;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Every route group the server answers, over the modules' use cases, in the order they are registered: the
 * admin check, the metrics (when on) and the campus feed, then the Service API (CORS and the key check before its
 * routes), the Knowledge API, the admin API, the web pages (and the landing page), the console and the API document.
 */
public final class HttpRoutes {

    private HttpRoutes() {
    }

    /** @param refusals logs every refused key and token, the admin check's ({@code admin}) included */
    public static List<RouteGroup> of(Configuration config, AdminAuthorization admin, RefusedCredentials refusals,
            Storage storage, WorkflowModule workflows, CampusModule campus, ChatModule chat,
            Observability observability) {
        List<RouteGroup> routes = new ArrayList<>();
        routes.add(admin);
        routes.addAll(observability.routes());
        routes.add(new CampusFeedRoutes(campus.feed, refusals));
        routes.add(new AdminCampusRoutes(admin, campus.issueKey, campus.banKey, campus.importData));
        routes.addAll(serviceApi(config.service(), workflows, chat, refusals));
        routes.addAll(admin(admin, workflows));
        routes.add(new AdminChatRoutes(admin, chat.browse));
        routes.add(new AdminInstanceRoutes(admin, new ListInstancesService(new JdbiInstanceLeases(storage.jdbi()),
                storage.health(config.service().minFreeDiskMb()), storage.instance().id(),
                storage.instance().shared())));
        routes.addAll(knowledgeApi(workflows.knowledge, refusals));
        routes.add(new AdminBackupRoutes(admin, BackupModule.backups(storage, config.dataDir(), Clock.systemUTC(),
                campus::keepUsesNow), Clock.systemUTC()));
        routes.add(new WebAppRoutes(workflows.apps.webApp));
        routes.add(new FormPageRoutes(workflows.runs.forms, config.service().requests()));
        routes.add(new WebhookTriggerRoutes(workflows.triggers.webhooks, config.triggers().maxBodyBytes(),
                config.triggers().callsPerMinute()));
        McpServerModule mcp = new McpServerModule(storage.jdbi(), config.mcpServer(), workflows, chat);
        routes.add(new AdminMcpServerRoutes(admin, mcp.manage));
        routes.add(new AdminLimitRoutes(admin, workflows.limits.manage));
        routes.add(new BudgetRoutes(admin, workflows.limits.readBudgets));
        routes.add(new McpServerRoutes(mcp.serve, CommandLine.VERSION, config.mcpServer().maxBodyBytes(),
                config.mcpServer().maxCalls(), config.mcpServer().callWait()));
        routes.add(new ConsoleRoutes(admin.consoleSessions(), refusals));
        routes.add(new OpenApiRoutes());
        return List.copyOf(routes);
    }

    /** The workflow and chat Service API under /v1, behind its CORS and its key check. */
    private static List<RouteGroup> serviceApi(ServiceSettings service, WorkflowModule workflows, ChatModule chat,
            RefusedCredentials refusals) {
        RunsModule runs = workflows.runs;
        ServiceApiAuthentication keys = new ServiceApiAuthentication(workflows.apps.authenticate, refusals,
                workflows.limits.rates);
        return List.of(
                new ServiceApiCors(service.corsOrigins()),
                new ServiceApiIndexRoutes(CommandLine.VERSION),
                keys,
                new RunRoutes(runs.run, runs.getRun, runs.stop, runs.nodeExecutions, runs.followRun, keys,
                        service.pingInterval(), service.requests(), runs.forms),
                new HumanInputRoutes(runs.forms, runs.followRun, service.pingInterval(), service.requests()),
                new ChatRoutes(chat.send, chat.stop, chat.speak, chat.listen, service.pingInterval(),
                        service.requests(), runs.forms),
                new ConversationRoutes(chat.listMessages, chat.giveFeedback, chat.listAppFeedbacks,
                        chat.suggestQuestions, chat.listConversations, chat.deleteConversation,
                        chat.renameConversation, chat.listVariables, chat.updateVariable, service.requests()),
                new UploadRoutes(workflows.files.upload),
                new ToolFileRoutes(workflows.files.toolFiles),
                new FilePreviewRoutes(workflows.files.previewUpload),
                new LogRoutes(runs.logs),
                new AppInfoRoutes(workflows.apps.describe),
                new EndUserRoutes(workflows.apps.findEndUser),
                new CompletionRoutes(chat.complete, service.pingInterval(), service.requests()),
                new AnnotationRoutes(chat.annotations.manage, chat.annotations.reply, service.requests()));
    }

    /** The admin API of apps, webhooks, tools and knowledge bases. */
    private static List<RouteGroup> admin(AdminAuthorization admin, WorkflowModule workflows) {
        AppsModule apps = workflows.apps;
        KnowledgeModule knowledge = workflows.knowledge;
        return List.of(
                new AdminAppRoutes(admin, apps.importApp, apps.listApps, apps.publish, apps.exportDsl, apps.keys,
                        apps.describe, apps.updateSite, workflows.webhooks.webhooks),
                new AdminWebhookRoutes(admin, workflows.webhooks.webhooks, workflows.webhooks.deliveries,
                        workflows.webhooks.redeliver),
                new AdminRunRoutes(admin, workflows.runs.inspect, workflows.runs.control, workflows.runs.forms),
                new AdminTriggerRoutes(admin, workflows.triggers.manage),
                new AdminToolRoutes(admin, workflows.tools.listTools, workflows.tools.mcpServers,
                        workflows.tools.toolBindings),
                new AdminKnowledgeRoutes(admin, knowledge.bases, knowledge.addDocument, knowledge.retrieve,
                        knowledge.keys, knowledge.documents));
    }

    /** Dify's Knowledge API under /v1/datasets, behind its own key check. */
    private static List<RouteGroup> knowledgeApi(KnowledgeModule knowledge, RefusedCredentials refusals) {
        return List.of(
                new DatasetKeyAuthentication(knowledge.keys, refusals),
                new KnowledgeTagRoutes(knowledge.tags),
                new KnowledgeMetadataRoutes(knowledge.metadata),
                new KnowledgeApiRoutes(knowledge.bases, knowledge.addDocument, knowledge.documents,
                        knowledge.retrieve, knowledge.tags, knowledge.metadata, knowledge.documentStatus));
    }
}
