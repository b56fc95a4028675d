#pragma once
#include <glib.h>
#include <glib-object.h>
#include <libnotify/notify.h>
