import type { HttpClient } from '../core/http.js';
import { paginate, type PagePromise } from '../core/pagination.js';
import type { EditMaterial, EditMaterialCategory, EditMaterialListParams, List, Price, RequestOptions, Style } from '../types.js';

/** `GET /v1/styles`: every decoration style in one answer. */
export class Styles {
  constructor(private readonly http: HttpClient) {}

  async list(options?: RequestOptions): Promise<List<Style>> {
    return (await this.http.request<List<Style>>({ method: 'GET', path: '/styles' }, options)).data;
  }
}

/** `GET /v1/edit-material-categories`: every category in one answer. */
export class EditMaterialCategories {
  constructor(private readonly http: HttpClient) {}

  async list(options?: RequestOptions): Promise<List<EditMaterialCategory>> {
    return (await this.http.request<List<EditMaterialCategory>>({ method: 'GET', path: '/edit-material-categories' }, options)).data;
  }
}

/** `GET /v1/edit-materials`: paginated; `await` for a page or `for await` for every material. */
export class EditMaterials {
  constructor(private readonly http: HttpClient) {}

  list(params: EditMaterialListParams = {}, options?: RequestOptions): PagePromise<EditMaterial> {
    return paginate<EditMaterial>(this.http, '/edit-materials', params, options);
  }
}

/**
 * `GET /v1/prices`: the price of each type at each quality or scale for the key's organization,
 * its tier discount applied (the `cost.amount` a creation accepted now gets), in cents.
 */
export class Prices {
  constructor(private readonly http: HttpClient) {}

  async list(options?: RequestOptions): Promise<List<Price>> {
    return (await this.http.request<List<Price>>({ method: 'GET', path: '/prices' }, options)).data;
  }
}
