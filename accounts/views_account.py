"""REST endpoints of the account holder's own account: thin views over accounts.selfservice.

``/api/auth/password/...`` (change, reset by e-mail) and ``/api/account/...`` (sessions, tokens,
export, deletion)."""

from django.contrib.auth import update_session_auth_hash
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import ErrorSerializer

from . import selfservice, services
from . import serializers as s
from .throttles import PASSWORD_RESET, ClientAddressThrottle

E = lambda text: OpenApiResponse(ErrorSerializer, description=text)  # noqa: E731
UNAUTH = E("not_authenticated / authentication_failed")
RECHECK_LOCKED = E("too_many_attempts: too many wrong passwords for this account (Retry-After); the password "
                   "is not checked until the window passes")


def _body(serializer_class, request) -> dict:
    ser = serializer_class(data=request.data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


def _session_key(request) -> str | None:
    """The web session this request was authenticated with, if any (not with a token)."""
    if isinstance(request.auth, Token):
        return None
    return getattr(getattr(request, "session", None), "session_key", None)


def _token_key(request) -> str | None:
    return request.auth.key if isinstance(request.auth, Token) else None


class PasswordChangeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["account"], operation_id="auth_password_change", request=s.PasswordChangeSerializer,
                   responses={200: s.PasswordChangedSerializer, 400: E("wrong_password / malformed (a weak new password)"),
                              401: UNAUTH, 429: RECHECK_LOCKED},
                   description="Change the password. Every other login ends: the API token is replaced (a token "
                               "client gets the new one back) and every other web session is signed out. Wrong "
                               "old passwords count towards the same lockout as failed logins (429).")
    def post(self, request):
        data = _body(s.PasswordChangeSerializer, request)
        user = request.user
        used_token = _token_key(request) is not None
        selfservice.password_change(user, old_password=data["old_password"], new_password=data["new_password"],
                                    keep_session=_session_key(request), ip=services.client_ip(request))
        if not used_token and _session_key(request):
            update_session_auth_hash(request._request, user)  # this browser stays signed in
        return Response({"token": services.token_for(user) if used_token else None})


class PasswordResetApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [ClientAddressThrottle]
    throttle_scope = PASSWORD_RESET  # per client address, shared with the forgotten-password page

    @extend_schema(tags=["account"], operation_id="auth_password_reset", request=s.PasswordResetSerializer,
                   responses={204: None, 400: E("malformed"),
                              429: E("throttled: PASSWORD_RESET_RATE per client address, shared with the "
                                     "forgotten-password page (Retry-After)")},
                   description="E-mail a one-use reset link to the active accounts with this address. The answer "
                               "is the same whether or not such an account exists.")
    def post(self, request):
        data = _body(s.PasswordResetSerializer, request)
        selfservice.password_reset_request(email=data["email"], request=request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetConfirmApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(tags=["account"], operation_id="auth_password_reset_confirm", request=s.PasswordResetConfirmSerializer,
                   responses={204: None, 400: E("invalid_reset_link / malformed (a weak new password)")},
                   description="Set a new password with the uid and token of an e-mailed link (works once). "
                               "Every login of the account ends.")
    def post(self, request):
        data = _body(s.PasswordResetConfirmSerializer, request)
        selfservice.password_reset_confirm(uidb64=data["uid"], token=data["token"], new_password=data["new_password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionListApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["account"], operation_id="account_sessions", responses={200: s.SessionListSerializer, 401: UNAUTH})
    def get(self, request):
        return Response({"sessions": selfservice.sessions_list(request.user, _session_key(request))})


SESSION_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="a session id from the list")
TOKEN_ID = OpenApiParameter("id", OpenApiTypes.STR, OpenApiParameter.PATH, description="a token id from the list")


class SessionDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["account"], operation_id="account_session_end", parameters=[SESSION_ID],
                   responses={204: None, 401: UNAUTH, 404: E("not_found")},
                   description="Sign that browser out; a match socket opened with it closes (4401) within "
                               "SOCKET_AUTH_RECHECK_SECONDS.")
    def delete(self, request, id):
        selfservice.session_end(request.user, id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenListApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["account"], operation_id="account_tokens", responses={200: s.TokenListSerializer, 401: UNAUTH})
    def get(self, request):
        return Response({"tokens": selfservice.tokens_list(request.user, _token_key(request))})


class TokenDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["account"], operation_id="account_token_revoke", parameters=[TOKEN_ID],
                   responses={204: None, 401: UNAUTH, 404: E("not_found")},
                   description="Revoke the API token; sockets opened with it close within SOCKET_AUTH_RECHECK_SECONDS.")
    def delete(self, request, id):
        selfservice.token_revoke(request.user, id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ExportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["account"], operation_id="account_export", responses={200: s.ExportSerializer, 401: UNAUTH})
    def get(self, request):
        response = Response(selfservice.export(request.user))
        response["Content-Disposition"] = 'attachment; filename="kamiza-account.json"'
        return response


class AccountDeleteApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["account"], operation_id="account_delete", request=s.AccountDeleteSerializer,
                   responses={204: None, 400: E("wrong_password"), 401: UNAUTH, 409: E("in_active_match"),
                              429: RECHECK_LOCKED},
                   description="Delete the account (password required; wrong ones count towards the same lockout "
                               "as failed logins, 429). Refused while it sits in a running match; "
                               "its open matches are left. The user row is anonymized, not removed: match logs "
                               "are never rewritten, and its seats show \"deleted player\".")
    def post(self, request):
        data = _body(s.AccountDeleteSerializer, request)
        selfservice.account_delete(request.user, password=data["password"], ip=services.client_ip(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
