package dev.hexaflow.adapters.http.serviceapi;

import dev.hexaflow.adapters.http.server.RefusedCredentials;
import dev.hexaflow.adapters.http.server.RefusedCredentials.Credential;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase.Operation;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase;
import dev.hexaflow.application.apps.port.in.Caller;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.limits.port.in.AdmitRequestUseCase;
import dev.hexaflow.domain.app.AppKey;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.security.RouteRole;

/**
 * Dify's bearer check for every route of the Service API, before the route runs: each route names what it asks
 * of the app (an {@link Access}), and the check finds the app that the bearer token speaks for, an app's key or
 * a token its web page handed out. A page's token acts for its own web user only: every route asks
 * {@link #user} for the end user it acts for, never the request alone. A refusal of the service, here or in a
 * route, is answered in Dify's error body by the server's one mapping of refusals
 * ({@link dev.hexaflow.adapters.http.server.Refusals}).
 */
public final class ServiceApiAuthentication implements RouteGroup {

    private static final String CALLER = "hexaflow.caller";
    private static final String TOKEN = "hexaflow.bearer-token";
    private static final String RATES = "hexaflow.request-rates";

    private final AuthenticateUseCase authenticate;
    private final RefusedCredentials refusals;
    private final AdmitRequestUseCase rates;

    public ServiceApiAuthentication(AuthenticateUseCase authenticate) {
        this(authenticate, new RefusedCredentials());
    }

    /** @param refusals where each refused key or token is logged, shared with the server's other checks */
    public ServiceApiAuthentication(AuthenticateUseCase authenticate, RefusedCredentials refusals) {
        this(authenticate, refusals, null);
    }

    /**
     * @param rates counts each request with a key under the app's rate per key, and each start (a run, a chat turn,
     *              a completion) under its rate per end user ({@link #starter}); null for no rates
     */
    public ServiceApiAuthentication(AuthenticateUseCase authenticate, RefusedCredentials refusals,
            AdmitRequestUseCase rates) {
        this.authenticate = authenticate;
        this.refusals = refusals;
        this.rates = rates;
    }

    /** What a Service API route asks of the app, given with the route as its role. */
    public enum Access implements RouteRole {
        RUN(Operation.RUN), STOP(Operation.STOP), UPLOAD(Operation.UPLOAD), DESCRIBE(Operation.DESCRIBE),
        READ_RUNS(Operation.READ_RUNS), CHAT(Operation.CHAT),
        MANAGE_ANNOTATIONS(Operation.MANAGE_ANNOTATIONS);

        private final Operation operation;

        Access(Operation operation) {
            this.operation = operation;
        }
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.beforeMatched("/v1/*", this::authenticate);
    }

    /** The app the request was authenticated for. */
    public static String appId(Context ctx) {
        return caller(ctx).appId();
    }

    /**
     * The end user the request acts for, given the one it names ({@code requested}, from wherever the route
     * reads it): that one for an app key; for a page's token, its own user, refused unless the request names it.
     */
    public static String user(Context ctx, String requested) {
        return caller(ctx).userFor(requested);
    }

    /** The id of the app key the request came with (the start of its hash); null for a web page's token. */
    public static String keyId(Context ctx) {
        return caller(ctx).keyId();
    }

    /**
     * The end user a start (a run, a chat turn, a completion) acts for, as {@link #user} answers it, counted under
     * the app's rate per end user: a web page's user and an app key's end user alike.
     *
     * @throws ApiException TOO_MANY_REQUESTS, with its Retry-After, past the rate
     */
    public static String starter(Context ctx, String requested) {
        String user = user(ctx, requested);
        AdmitRequestUseCase rates = ctx.attribute(RATES);
        if (rates != null && user != null && !user.isBlank()) {
            rates.byEndUser(appId(ctx), user).orRefuse();
        }
        return user;
    }

    /** Whether the request came with a web page's token rather than an app's key. */
    public static boolean fromPage(Context ctx) {
        return caller(ctx).pageUser() != null;
    }

    private static Caller caller(Context ctx) {
        Caller caller = ctx.attribute(CALLER);
        if (caller == null) {
            throw new IllegalStateException("route " + ctx.path() + " has no Access role");
        }
        return caller;
    }

    private void authenticate(Context ctx) {
        Access access = accessOf(ctx);
        if (access == null) {
            return;
        }
        String header = ctx.header("Authorization");
        if (header == null || header.isBlank() || !header.strip().contains(" ")) {
            throw refused(ctx, Credential.APP_KEY, new ApiException(ApiError.UNAUTHORIZED,
                    "Authorization header must be provided and start with 'Bearer'"));
        }
        String[] parts = schemeAndCredentials(header.strip());
        if (!parts[0].equalsIgnoreCase("bearer")) {
            throw refused(ctx, Credential.APP_KEY, new ApiException(ApiError.UNAUTHORIZED,
                    "Authorization scheme must be 'Bearer'"));
        }
        String token = parts[1].strip();
        Caller caller = callerOf(ctx, token, access.operation);
        ctx.attribute(CALLER, caller);
        ctx.attribute(TOKEN, token);
        ctx.attribute(RATES, rates);
        if (rates != null && caller.keyId() != null) {
            rates.byKey(caller.appId(), caller.keyId()).orRefuse();
        }
    }

    /** The route's {@link Access}, found with a loop: every request asks, and a stream costs its pipeline. */
    private static Access accessOf(Context ctx) {
        for (RouteRole role : ctx.routeRoles()) {
            if (role instanceof Access access) {
                return access;
            }
        }
        return null;
    }

    /**
     * What {@code header.split("\\s+", 2)} gives a stripped header that holds a space, without compiling the
     * expression on every request: the scheme, and the rest after the first run of whitespace.
     */
    public static String[] schemeAndCredentials(String header) {
        int end = 0;
        while (end < header.length() && !isRegexSpace(header.charAt(end))) {
            end++;
        }
        int rest = end;
        while (rest < header.length() && isRegexSpace(header.charAt(rest))) {
            rest++;
        }
        return new String[] {header.substring(0, end), header.substring(rest)};
    }

    /** The characters the expression {@code \s} matches. */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** The caller, or the refusal, logged when the token itself was refused (not what it may do). */
    private Caller callerOf(Context ctx, String token, Operation operation) {
        try {
            return authenticate.callerOf(token, operation);
        } catch (ApiException e) {
            if (e.error() == ApiError.UNAUTHORIZED) {
                refused(ctx, AppKey.looksLikeKey(token) ? Credential.APP_KEY : Credential.WEB_APP_TOKEN, e);
            }
            throw e;
        }
    }

    private ApiException refused(Context ctx, Credential credential, ApiException refusal) {
        refusals.refused(ctx, credential, refusal.getMessage());
        return refusal;
    }

    /**
     * Checks that the request's bearer token may also do {@code operation}, which the route learns only from
     * the body (an async run); refused as the route's own check refuses.
     */
    public void require(Context ctx, Operation operation) {
        callerOf(ctx, ctx.attribute(TOKEN), operation);
    }
}
