"""Staff forms: they turn HTML inputs into arguments; the checks live in ``logfile``/``services``."""

from django import forms

from .logfile import LogError, parse_log

MAX_LOG_BYTES = 20 * 1024 * 1024


class AnnotationForm(forms.Form):
    seq = forms.IntegerField(min_value=1)
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "cols": 60}), max_length=5000)


class LogImportForm(forms.Form):
    log = forms.FileField(label="Log file (.jsonl)", help_text="A file produced by a match's log download.")

    def clean_log(self):
        upload = self.cleaned_data["log"]
        if upload.size > MAX_LOG_BYTES:
            raise forms.ValidationError(f"the file is larger than {MAX_LOG_BYTES // (1024 * 1024)} MB")
        raw = upload.read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError("the file is not UTF-8 text (expected JSON Lines)")
        try:
            self.parsed = parse_log(text)
        except LogError as err:
            raise forms.ValidationError(err.messages)
        return upload
