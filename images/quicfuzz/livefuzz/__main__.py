import sys

from .campaign import main

sys.exit(main(sys.argv))
