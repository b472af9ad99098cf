from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from .forms import EMAIL_MAX_LENGTH
from .identity import TAKEN, username_clean, username_taken


def _username_checked(value: str, *, exclude_user_id=None) -> str:
    """The one username check of the API: NFKC, Django's character rules, no lookalike taken."""
    try:
        value = username_clean(value)
    except DjangoValidationError as err:
        raise serializers.ValidationError(list(err.messages))
    if username_taken(value, exclude_user_id=exclude_user_id):
        raise serializers.ValidationError(TAKEN, code="unique")
    return value


class RegisterSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, trim_whitespace=False, max_length=4096)
    email = serializers.EmailField(required=False, allow_blank=True, default="", max_length=EMAIL_MAX_LENGTH,
                                   help_text="optional; one account per address, case aside (409 `email_taken`)")

    def validate_username(self, value):
        return _username_checked(value)

    def validate(self, attrs):
        user = get_user_model()(username=attrs["username"], email=attrs.get("email") or "")
        try:
            validate_password(attrs["password"], user)
        except DjangoValidationError as err:
            raise serializers.ValidationError({"password": list(err.messages)})
        return attrs


class RegisteredSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, trim_whitespace=False)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, write_only=True)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(max_length=150, required=False,
                                     help_text="renaming goes through the same lookalike check as registration")
    display_name = serializers.CharField(max_length=60, allow_blank=True, required=False)
    email = serializers.EmailField(allow_blank=True, required=False, max_length=EMAIL_MAX_LENGTH, help_text=(
        "where password reset links go: changing it (to another address or to none) needs `password`; one "
        "account per address, case aside (409 `email_taken`)"))
    turn_email = serializers.BooleanField(required=False, help_text=(
        "e-mail me when my decision has waited TURN_EMAIL_AFTER_MINUTES in a running match (default off)"))
    password = serializers.CharField(write_only=True, required=False, allow_blank=True, max_length=4096,
                                     trim_whitespace=False,
                                     help_text=("your current password: required when `email` changes (400 "
                                                "password_required without it, 400 wrong_password, 429 "
                                                "too_many_attempts after too many wrong ones); not needed otherwise"))


# -- the account holder's own account ----------------------------------------------------------------


class PasswordChangeSerializer(serializers.Serializer):
    old_password = serializers.CharField(max_length=4096, trim_whitespace=False, write_only=True)
    new_password = serializers.CharField(max_length=4096, trim_whitespace=False, write_only=True)


class PasswordChangedSerializer(serializers.Serializer):
    token = serializers.CharField(allow_null=True, help_text="the new API token when the request used one "
                                  "(the old one is revoked with every other login), else null")


class PasswordResetSerializer(serializers.Serializer):
    email = serializers.EmailField(max_length=EMAIL_MAX_LENGTH)


class PasswordResetConfirmSerializer(serializers.Serializer):
    uid = serializers.CharField(max_length=64, help_text="the uidb64 part of the e-mailed link")
    token = serializers.CharField(max_length=128, help_text="the token part of the e-mailed link")
    new_password = serializers.CharField(max_length=4096, trim_whitespace=False, write_only=True)


class LoginSessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    ip = serializers.CharField()
    user_agent = serializers.CharField()
    current = serializers.BooleanField(help_text="the session this request came with")


class SessionListSerializer(serializers.Serializer):
    sessions = LoginSessionSerializer(many=True)


class ApiTokenSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="a public id (a hash prefix), never the token itself")
    created_at = serializers.DateTimeField()
    current = serializers.BooleanField(help_text="the token this request came with")


class TokenListSerializer(serializers.Serializer):
    tokens = ApiTokenSerializer(many=True)


class AccountDeleteSerializer(serializers.Serializer):
    password = serializers.CharField(max_length=4096, trim_whitespace=False, write_only=True)


class ExportSerializer(serializers.Serializer):
    format = serializers.CharField(help_text="kamiza-account-export/1")
    exported_at = serializers.DateTimeField()
    account = serializers.DictField()
    records = serializers.ListField(child=serializers.DictField())
    matches = serializers.ListField(child=serializers.DictField(), help_text="with your own events, redacted for your seat")
    chat = serializers.ListField(child=serializers.DictField(), help_text="the chat messages you wrote (with the "
                                 "reason when staff hid one)")
    invitations = serializers.ListField(child=serializers.DictField(), help_text="the invitations you sent or "
                                        "received, with what became of each (accepted, declined, revoked)")
    sessions = LoginSessionSerializer(many=True)
    tokens = ApiTokenSerializer(many=True)
