/*
 * json-get.c: reading members of QEMU's and qmigrate's JSON documents
 * without a NULL check at every step.  Each returns a neutral value (NULL,
 * 0) when the object is NULL, the member is absent or of another type.
 */
#include <json-c/json.h>

#include "qmigrate.h"

json_object *
json_obj_at(json_object *o, const char *key)
{
	json_object *v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

const char *
json_str_at(json_object *o, const char *key)
{
	json_object *v = json_obj_at(o, key);

	if (v == NULL || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

uint64_t
json_u64_at(json_object *o, const char *key)
{
	json_object *v = json_obj_at(o, key);

	return v != NULL ? (uint64_t)json_object_get_int64(v) : 0;
}

double
json_double_at(json_object *o, const char *key)
{
	json_object *v = json_obj_at(o, key);

	return v != NULL ? json_object_get_double(v) : 0;
}

int
json_bool_at(json_object *o, const char *key)
{
	json_object *v = json_obj_at(o, key);

	return v != NULL ? json_object_get_boolean(v) : 0;
}
