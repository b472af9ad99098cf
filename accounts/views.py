"""REST endpoints of accounts: thin views over accounts.services."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.authtoken.models import Token
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import ErrorSerializer
from games.api.throttles import ScopedUserThrottle

from . import services, tokens
from .errors import InvalidCredentials
from .serializers import MeSerializer, RegisteredSerializer, RegisterSerializer, TokenRequestSerializer, TokenSerializer
from .throttles import REGISTER, ClientAddressThrottle, rename_wait

E = lambda text: OpenApiResponse(ErrorSerializer, description=text)  # noqa: E731


def _me(user) -> dict:
    profile = services.profile_get(user)
    return {"id": user.pk, "username": user.get_username(), "display_name": profile.display_name, "email": user.email,
            "turn_email": profile.turn_email}


class UserRegisterApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [ClientAddressThrottle]
    throttle_scope = REGISTER  # per client address, shared with the sign-up page (accounts.throttles)

    @extend_schema(
        tags=["auth"], operation_id="auth_register", request=RegisterSerializer,
        responses={201: RegisteredSerializer, 400: E("malformed (field errors in extra, e.g. a weak password)"),
                   409: E("email_taken: another account has this e-mail address (case aside); `extra.field` is "
                          "`email`, the account is not named"),
                   429: E("throttled: REGISTER_RATE per client address, shared with the sign-up page (Retry-After)"),
                   415: E("unsupported_media_type: a body that is not JSON, form or multipart data")},
    )
    def post(self, request):
        ser = RegisterSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = services.user_register(**ser.validated_data)  # ValidationError -> 400 malformed, EmailTaken -> 409
        return Response({"id": user.pk, "username": user.get_username(), "token": services.token_for(user)},
                        status=status.HTTP_201_CREATED)


class UserTokenApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["auth"], operation_id="auth_token", request=TokenRequestSerializer,
        responses={200: TokenSerializer, 400: E("invalid / invalid_credentials"), 429: E("too_many_attempts")},
        description="Exchange credentials for an API token (`Authorization: Token <token>`). Failed attempts "
                    "are rate-limited per username and per client IP (429 too_many_attempts).",
    )
    def post(self, request):
        ser = TokenRequestSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = services.user_authenticate(request, ser.validated_data["username"], ser.validated_data["password"])
        if user is None or not user.is_active:
            raise InvalidCredentials()
        return Response({"token": services.token_for(user)})


class UserLogoutApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["auth"], operation_id="auth_logout", request=None,
                   responses={204: None, 401: E("not_authenticated"), 403: E("CSRF failure for session logins")})
    def post(self, request):
        services.user_logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class UserMeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["auth"], operation_id="auth_me", responses={200: MeSerializer, 401: E("not_authenticated")})
    def get(self, request):
        return Response(_me(request.user))

    @extend_schema(tags=["auth"], operation_id="auth_me_update", request=MeSerializer,
                   responses={200: MeSerializer,
                              400: E("malformed / password_required (a new email without password) / wrong_password"),
                              401: E("not_authenticated"),
                              409: E("email_taken: another account has this e-mail address (case aside); "
                                     "`extra.field` is `email`, the account is not named"),
                              429: E("too_many_attempts: too many wrong passwords for this account / throttled: "
                                     "too many renames (USERNAME_CHANGE_RATE per account, shared with the account "
                                     "page) (Retry-After)")},
                   description="Change what is given. Changing `email` (where password reset links go) needs the "
                               "current `password`, checked under the same lockout as a login, and an address no "
                               "other account has, case aside (409 `email_taken`, asked after the password); a "
                               "refusal changes nothing. A new `username` is throttled per account (every name given up stays "
                               "reserved for the account).")
    def patch(self, request):
        ser = MeSerializer(data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        wait = rename_wait(request, data.get("username"))
        if wait is not None:
            raise Throttled(wait)
        services.profile_update(user=request.user, display_name=data.get("display_name"), email=data.get("email"),
                                username=data.get("username"), turn_email=data.get("turn_email"),
                                password=data.get("password"), ip=services.client_ip(request))
        return Response(_me(request.user))


# -- token rotation and socket tickets (accounts.tokens) ------------------------------------------


class RotatedTokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    expires_in = serializers.IntegerField(help_text="seconds until this token expires (API_TOKEN_TTL_SECONDS)")


class SocketTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(help_text="open ws /ws/matches/{id}/?ticket=<ticket>; single use")
    expires_in = serializers.IntegerField(help_text="seconds the ticket stays redeemable (SOCKET_TICKET_TTL_SECONDS)")


class SocketTicketThrottle(ScopedUserThrottle):
    scope = "socket_ticket"


class UserTokenRotateApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["auth"], operation_id="auth_token_rotate", request=None,
                   responses={200: RotatedTokenSerializer, 401: E("not_authenticated / authentication_failed")},
                   description="Revoke the caller's API token and issue a new one (tokens expire after "
                               "API_TOKEN_TTL_SECONDS). Sockets opened with the old token end within "
                               "SOCKET_AUTH_RECHECK_SECONDS.")
    def post(self, request):
        token = tokens.token_rotate(request.user)
        return Response({"token": token.key, "expires_in": tokens.token_expires_in(token)})


class SocketTicketApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [SocketTicketThrottle]

    @extend_schema(tags=["auth"], operation_id="auth_socket_ticket", request=None,
                   responses={200: SocketTicketSerializer, 401: E("not_authenticated / authentication_failed"),
                              429: E("throttled (Retry-After)")},
                   description="A short-lived, single-use ticket for opening a match socket "
                               "(`ws /ws/matches/{id}/?ticket=<ticket>`) without a long-lived credential in the "
                               "URL. The socket lasts as long as the session or token that asked for the ticket.")
    def post(self, request):
        if isinstance(request.auth, Token):
            ticket, ttl = tokens.ticket_issue(user_id=request.user.pk, token_key=request.auth.key)
        else:
            ticket, ttl = tokens.ticket_issue(user_id=request.user.pk, session_key=request.session.session_key)
        return Response({"ticket": ticket, "expires_in": ttl})
