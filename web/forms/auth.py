"""The login page's form (config/urls.py). Django's ``AuthenticationForm`` only shows the
username's maximum length in the widget; a longer username reached ``authenticate`` and
django-axes, whose 255-character column refused it with a 500 (issue 14 item 6). Here it is a
form error and nothing is looked up or logged."""

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator


class LoginForm(AuthenticationForm):
    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))


class AdminLoginForm(AdminAuthenticationForm):
    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))
