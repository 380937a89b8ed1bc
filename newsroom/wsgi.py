import os

from newsroom.serving import serving_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings")
application = serving_application()
