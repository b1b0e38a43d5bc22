/** /explosiveAnalysis/project: my products — list, add, edit (with a picture), delete. */
import { Button, FormGroup } from '@blueprintjs/core';
import { UploadBox, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import { ReplicaStateToken, type ProductsScreen, type ReplicaState } from '../replica-state';
import { PRODUCT_FIELDS } from '../replica-view';
import { RecordsPage } from './RecordsParts';
import './replica.css';

export default function ProductsPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(ReplicaStateToken, (state: ReplicaState) => state.openProducts(closed$));
  const list = useStore(screen.products).value?.list;
  const uploading = useValue(screen.uploading$);
  return (
    <RecordsPage
      screen={screen}
      list={list}
      noun="产品"
      icon="shopping-cart"
      subtitle="仿写和写脚本时围绕的产品：卖点、人群与使用场景"
      emptyText="加上产品，仿写出来的文案会带上它的卖点。"
      testId="replica-products"
      cardTestId="replica-product-card"
      card={(p) => ({ title: p.name, image: p.image, lines: [['品类', p.category], ['价格', p.price ? `¥${p.price}` : ''], ['卖点', p.selling_points], ['人群', p.audience], ['场景', p.scenes]] })}
      fields={PRODUCT_FIELDS}
      busy={uploading}
    >
      <Picture screen={screen} />
    </RecordsPage>
  );
}

function Picture({ screen }: { screen: ProductsScreen }) {
  const image = useValue(screen.image$);
  return (
    <FormGroup label="产品图片（可选）" className="rp-wide">
      {image ? (
        <div className="rp-picture">
          <img src={image.url} alt="" />
          <Button icon="cross" variant="minimal" text="移除" onClick={() => screen.uploaded(null)} />
        </div>
      ) : (
        <UploadBox type="image" accept=".jpg,.jpeg,.png" onUploaded={(f) => screen.uploaded(f)} onBusyChange={(b) => screen.uploading$.next(b)} hint="支持 JPG/PNG" compact data-testid="replica-image" />
      )}
    </FormGroup>
  );
}
