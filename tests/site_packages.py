"""A table's site-packages for the manifest's tests: the outcome dependencies that decide
outcomes (controller/console/manifest.py's OUTCOME_DEPENDENCIES), linked from where this
Python has them, with their dist-info, beside whatever firmware the test puts there."""
import glob
import os

from controller.console.manifest import OUTCOME_DEPENDENCIES


def link_dependencies(root):
    """Symlink each outcome dependency's package and dist-info into `root`; returns
    {distribution: version}."""
    import importlib.metadata as md
    versions = {}
    for dist, package in OUTCOME_DEPENDENCIES.items():
        module = __import__(package)
        site = os.path.dirname(os.path.dirname(module.__file__))
        os.symlink(os.path.join(site, package), os.path.join(root, package))
        info = glob.glob(os.path.join(site, "%s-*.dist-info" % dist))[0]
        os.symlink(info, os.path.join(root, os.path.basename(info)))
        versions[dist] = md.version(dist)
    return versions
